// Drain: lock the acked cursors, planDrain, write rows and journal; a drain heading appends runs in their transaction, heads locked first.
import { decodeStoredCursors, RequestFailed } from '@session-state/adapters-sql-common';
import { assertStoreKey, planDrain, splitBatch, storeError, type AppendBatch, type AppendOutcome, type AppendRequest, type DrainOutcome, type DrainRequest } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { isLockedFailure } from '../connection/lockedFailure.js';
import { inTransaction, isRetryable, run } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { appendEach, appendEvents, sortedTargets } from './append.js';
import { writeCursorPlan } from './journal.js';

/** A heading drain's failure: `failed`, naming `drain`. */
const drainFailed = (error: unknown): AppendOutcome => ({ type: 'failed', error: storeError('drain', error) });

/** All or nothing: any failure rolls back every ack and rejects. */
export async function drain(db: StoreDb, request: DrainRequest): Promise<readonly DrainOutcome[]> {
  const { watcher, acks } = request;
  assertStoreKey('watcher', watcher);
  if (acks.length === 0) return [];
  // The acked cursors, locked in target order (the order appends lock cursors in).
  return inTransaction(db, async (client) => drainLocked(db, client, request, await run(client, db.statements.drainCursors, { watcher, targets: acks.map((ack) => ack.target) })));
}

/** The rest of the drain on the locked rows: plan, then write the moved rows and their journal entries. */
async function drainLocked(db: StoreDb, client: PoolClient, request: DrainRequest, locked: unknown[][]): Promise<readonly DrainOutcome[]> {
  const plan = planDrain({ ...request, cursors: decodeStoredCursors(db, 'drain', locked) });
  await writeCursorPlan(db, client, plan);
  return plan.outcomes;
}

/** The drain, then the batch, heads locked before the drain's cursors; `isolated`: each part in a savepoint of its own, its failure rolling back only it. */
async function drainAndAppend(db: StoreDb, client: PoolClient, request: DrainRequest, batch: readonly AppendRequest[], isolated: boolean): Promise<AppendOutcome[]> {
  // The batch's heads in key order, then the drain's locking read behind them (one round trip).
  const targets = sortedTargets(batch);
  const headsLocked = targets.length > 0 ? run(client, db.statements.lockHeads, { sessionKeys: targets }) : undefined;
  const saved = isolated ? client.query('SAVEPOINT drain') : undefined;
  const drainRows = run(client, db.statements.drainCursors, { watcher: request.watcher, targets: request.acks.map((ack) => ack.target) });
  for (const sent of [saved, drainRows]) sent?.catch(() => undefined);
  await headsLocked;
  let drained: AppendOutcome;
  try {
    await saved;
    drained = { type: 'drained', outcomes: await drainLocked(db, client, request, await drainRows) };
    if (isolated) await client.query('RELEASE SAVEPOINT drain');
  } catch (e) {
    // The drain's own failure: the first attempt fails, the second runs it in its savepoint.
    if (isRetryable(e)) throw e;
    if (!isolated) throw new RequestFailed(e);
    await client.query('ROLLBACK TO SAVEPOINT drain');
    drained = drainFailed(e);
  }
  // Several targets' other cursors in (target, watcher) order; one target's are locked by its append's read.
  if (targets.length > 1) await run(client, db.statements.lockCursorsOnTargets, { targets });
  return [drained, ...(await appendEach(db, client, batch, isolated))];
}

/** See `StateStore.append`; a heading drain commits with the appends: first without savepoints, and when a part fails, again with each part in its own savepoint. */
export async function appendBatch(db: StoreDb, items: AppendBatch): Promise<AppendOutcome[]> {
  const { drain: request, appends: batch } = splitBatch(items);
  if (request === undefined) return appendEvents(db, batch);
  assertStoreKey('watcher', request.watcher);
  try {
    return await inTransaction(db, (client) => drainAndAppend(db, client, request, batch, false));
  } catch (e) {
    // Only a part's own failure is retried so (a failed COMMIT may have been applied); a session held past the lock bound: each part in a transaction of its own.
    if (isLockedFailure(e)) return [await drain(db, request).then((outcomes): AppendOutcome => ({ type: 'drained', outcomes }), drainFailed), ...(await appendEvents(db, batch))];
    if (!(e instanceof RequestFailed)) throw e;
  }
  return inTransaction(db, (client) => drainAndAppend(db, client, request, batch, true));
}
