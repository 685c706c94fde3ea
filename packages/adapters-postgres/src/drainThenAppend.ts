// A drain and then a batch of appends in one transaction (StateStore.drainThenAppend): one COMMIT,
// so one WAL flush, where a drain and an append batch one after the other wait for two. The
// statements run in that order, so every outcome is the one the two calls would have had.
//
// Locks: the batch's head rows first (in key order), then the drain's cursors (in target order),
// then what each append locks. Every other transaction takes a head before the cursors on its
// target, so taking the heads first keeps that order: without it, this drain could hold a cursor
// on target T while waiting for T's head, held by another gateway's append waiting for the cursor.
import { RequestFailed } from '@session-state/adapters-sql-common';
import { assertStoreKey, type AppendOutcome, type AppendRequest, type DrainOutcome, type DrainRequest, type DrainThenAppendResult } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { appendAllOrFail, appendEvents, appendIsolated } from './appendEvents.js';
import { drain as drainAlone, drainIn, drainLocked, lockDrainCursors } from './drain.js';
import { isLockedFailure } from './lockedFailure.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, isRetryable, run } from './transaction.js';

/** The drain's own failure on the first attempt: the second runs it in a savepoint. */
class DrainFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the drain failed');
  }
}

async function lockHeadsOf(db: StoreDb, client: PoolClient, batch: readonly AppendRequest[]): Promise<void> {
  const sessionKeys = [...new Set(batch.map((request) => request.command.sessionKey))].sort();
  if (sessionKeys.length > 0) await run(client, db.statements.lockHeads, { sessionKeys });
}

/**
 * The drain's cursors were locked after the heads; the batch's other cursors are locked by each
 * append's own read (one target each) or, for several targets, in (target, watcher) order here.
 */
async function lockBatchCursors(db: StoreDb, client: PoolClient, batch: readonly AppendRequest[]): Promise<void> {
  const targets = [...new Set(batch.map((request) => request.command.sessionKey))].sort();
  if (targets.length > 1) await run(client, db.statements.lockCursorsOnTargets, { targets });
}

/** The drain in a savepoint: its failure rolls back only it. */
async function drainIsolated(db: StoreDb, client: PoolClient, drain: DrainRequest): Promise<DrainThenAppendResult['drained']> {
  await client.query('SAVEPOINT drain');
  try {
    const outcomes = await drainIn(db, client, drain.watcher, drain.acks, drain.now);
    await client.query('RELEASE SAVEPOINT drain');
    return { ok: true, outcomes };
  } catch (e) {
    if (isRetryable(e)) throw e;
    await client.query('ROLLBACK TO SAVEPOINT drain');
    return { ok: false, error: e };
  }
}

/**
 * The drain and the batch each in a transaction of its own, as the two calls would run: after
 * locking both parts' rows met the lock bound, so a session another transaction holds fails alone
 * (appendEvents) instead of failing the drain and every append with it.
 */
async function separately(db: StoreDb, drain: DrainRequest, batch: readonly AppendRequest[]): Promise<DrainThenAppendResult> {
  let drained: DrainThenAppendResult['drained'];
  try {
    drained = { ok: true, outcomes: await drainAlone(db, drain.watcher, drain.acks, drain.now) };
  } catch (error) {
    drained = { ok: false, error };
  }
  return { drained, appended: await appendEvents(db, batch) };
}

/** See `StateStore.drainThenAppend`. An empty drain (no acks) or batch does only the other part. */
export async function drainThenAppend(db: StoreDb, drain: DrainRequest, batch: readonly AppendRequest[]): Promise<DrainThenAppendResult> {
  assertStoreKey('watcher', drain.watcher);
  // First without savepoints (four round trips fewer); a part that fails rolls the attempt back,
  // and it runs again with the drain and each append in its own savepoint.
  try {
    return await inTransaction(db, async (client) => {
      // The drain's locking read goes out behind the heads' lock (one round trip); the server
      // runs them in that order, so the lock order above holds.
      const headsLocked = lockHeadsOf(db, client, batch);
      const drainRows = drain.acks.length > 0 ? lockDrainCursors(db, client, drain.watcher, drain.acks) : undefined;
      // Heard below; moot when the heads' lock failed (the transaction is aborted then).
      drainRows?.catch(() => undefined);
      await headsLocked;
      let outcomes: readonly DrainOutcome[] = [];
      if (drainRows !== undefined) {
        try {
          outcomes = await drainLocked(db, client, drain.watcher, drain.acks, drain.now, await drainRows);
        } catch (e) {
          if (isRetryable(e)) throw e;
          throw new DrainFailed(e);
        }
      }
      await lockBatchCursors(db, client, batch);
      const appended = await appendAllOrFail(db, client, batch);
      return { drained: { ok: true, outcomes }, appended };
    });
  } catch (e) {
    // Only a part's own failure is retried this way: a failed BEGIN or COMMIT (the connection)
    // rejects, since a COMMIT whose answer was lost may have been applied.
    if (isLockedFailure(e)) return separately(db, drain, batch);
    if (!(e instanceof RequestFailed) && !(e instanceof DrainFailed)) throw e;
  }
  return inTransaction(db, async (client) => {
    await lockHeadsOf(db, client, batch);
    const drained: DrainThenAppendResult['drained'] = drain.acks.length > 0 ? await drainIsolated(db, client, drain) : { ok: true, outcomes: [] };
    await lockBatchCursors(db, client, batch);
    const appended: AppendOutcome[] = [];
    for (const request of batch) appended.push(await appendIsolated(db, client, request));
    return { drained, appended };
  });
}
