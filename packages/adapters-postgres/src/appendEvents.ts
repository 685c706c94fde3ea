// The append operation: one transaction per batch (group commit), each request of a larger
// batch in its own SAVEPOINT so a failure rolls back and fails only that request. Sequences are
// drawn under the session's head-row lock, so concurrent gateways never commit a session's
// events out of sequence order.
import { decodeStoredCursors, duplicateOutcome, eventParams, failedOutcome, RequestFailed } from '@session-state/adapters-sql-common';
import { assertAppendRequest, asSequence, planAppend, type AppendOutcome, type AppendRequest } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { writeCursorPlan } from './cursorJournal.js';
import { decodeEventValues } from './eventRow.js';
import { isLockedFailure } from './lockedFailure.js';
import { signalPairs } from './signal.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, isRetryable, run, runBoth, sqlState } from './transaction.js';

/** unique_violation: here, only a concurrent append that took the same dedupe key first. */
const UNIQUE_VIOLATION = '23505';

/** The event already holding the request's dedupe key, as a duplicate outcome, if there is one. */
async function existingDuplicate(db: StoreDb, client: PoolClient, dedupeKey: string): Promise<AppendOutcome | undefined> {
  const [existing] = await run(client, db.statements.eventByDedupeKey, { dedupeKey });
  return existing === undefined ? undefined : duplicateOutcome(db, existing, decodeEventValues);
}

/** One request, inside the batch's transaction (or a savepoint of it). */
export async function appendOne(db: StoreDb, client: PoolClient, request: AppendRequest): Promise<AppendOutcome> {
  // Before the dedupe lookup: an ill-formed key would match another key's row.
  assertAppendRequest(request);
  const st = db.statements;
  const { command, appendedAt, seedWatcher } = request;

  if (command.dedupeKey !== undefined) {
    const duplicate = await existingDuplicate(db, client, command.dedupeKey);
    if (duplicate !== undefined) return duplicate;
  }
  if (command.onlyIfWatched && (await run(client, st.anyCursorOnTarget, { target: command.sessionKey })).length === 0) {
    return { type: 'skipped', reason: 'unwatched' };
  }

  const params = eventParams(request);
  // The cursor read goes out with the insert (one round trip) and runs after it on the server: it
  // reads after the head lock is held, so no other gateway moves these cursors until we commit.
  const [[inserted], cursorValues] = await runBoth(run(client, st.appendEvent, params), run(client, st.cursorsOnTarget, { target: command.sessionKey }));
  if (inserted === undefined) throw new Error('the event insert returned no sequence');
  const sequence = asSequence(inserted[0] as number);

  const plan = planAppend({ command, sequence, appendedAt, occurredAt: params.occurredAt, cursorsOnTarget: decodeStoredCursors(db, 'append', cursorValues), seedWatcher });
  // The moved (or seeded) cursors and their journal entries (one statement), and with them (the
  // same round trip) the signal. Only a cursor that became pending is signalled (its owner
  // re-reads it, listen.ts): a repeat on a pending cursor keeps the notice its owner was told of,
  // and the resync covers a lost signal. Fewer NOTIFYs also means fewer commits queued on
  // PostgreSQL's notification lock.
  await runBoth(writeCursorPlan(db, client, plan), signalPairs(db, client, plan.notices.filter((notice) => notice.reason === 'first')));
  return { type: 'appended', event: plan.event, notices: plan.notices };
}

/**
 * The sessions of a batch whose rows another transaction held beyond the store's lock bound, with
 * that failure: their further requests in the batch fail with it at once instead of waiting again.
 */
export type LockedSessions = Map<string, unknown>;

/**
 * A request of a larger batch in its own savepoint (the second attempt, once a request of the
 * batch failed): a failure rolls back only it. A concurrent
 * gateway that committed the same dedupe key first makes it a duplicate, as if it had been first.
 */
export async function appendIsolated(db: StoreDb, client: PoolClient, request: AppendRequest, locked?: LockedSessions): Promise<AppendOutcome> {
  const sessionKey = request.command.sessionKey;
  if (locked?.has(sessionKey) === true) return failedOutcome(locked.get(sessionKey));
  await client.query('SAVEPOINT request');
  try {
    const outcome = await appendOne(db, client, request);
    await client.query('RELEASE SAVEPOINT request');
    return outcome;
  } catch (e) {
    // A deadlock or serialization failure retries the whole batch (see inTransaction).
    if (isRetryable(e)) throw e;
    await client.query('ROLLBACK TO SAVEPOINT request');
    if (isLockedFailure(e)) locked?.set(sessionKey, e);
    const dedupeKey = request.command.dedupeKey;
    if (sqlState(e) === UNIQUE_VIOLATION && dedupeKey !== undefined) {
      const duplicate = await existingDuplicate(db, client, dedupeKey);
      if (duplicate !== undefined) return duplicate;
    }
    return failedOutcome(e);
  }
}

/**
 * Appends every request of `batch` in order on `client`, inside the caller's transaction and
 * without savepoints: the first request that fails throws `RequestFailed` (a retryable failure
 * rethrows as it is), so the caller rolls the attempt back and runs it again isolated.
 */
export async function appendAllOrFail(db: StoreDb, client: PoolClient, batch: readonly AppendRequest[], locked?: LockedSessions): Promise<AppendOutcome[]> {
  const outcomes: AppendOutcome[] = [];
  for (const request of batch) {
    try {
      outcomes.push(await appendOne(db, client, request));
    } catch (e) {
      if (isRetryable(e)) throw e;
      if (isLockedFailure(e)) locked?.set(request.command.sessionKey, e);
      throw new RequestFailed(e);
    }
  }
  return outcomes;
}

/**
 * Locks, in key order, the head rows and cursors a batch of several sessions will write, so two
 * gateways' batches (and drains, which lock cursors in target order too) never wait on each other
 * in a cycle. A deadlock that still happens (sessions created inside both batches) is retried.
 */
export async function lockBatch(db: StoreDb, client: PoolClient, batch: readonly AppendRequest[]): Promise<void> {
  const targets = [...new Set(batch.map((r) => r.command.sessionKey))].sort();
  if (targets.length < 2) return;
  // One round trip: the server takes the heads' locks, then the cursors', in that order.
  await runBoth(run(client, db.statements.lockHeads, { sessionKeys: targets }), run(client, db.statements.lockCursorsOnTargets, { targets }));
}

/**
 * Appends a batch in one transaction, in order; see `StateStore.append`. A request that fails
 * alone is a `failed` outcome and leaves no trace. A failure of the transaction itself (the
 * connection, the commit) rejects, since no request of the batch was kept.
 */
export async function appendEvents(db: StoreDb, batch: readonly AppendRequest[]): Promise<AppendOutcome[]> {
  if (batch.length === 0) return [];
  const only = batch.length === 1 ? batch[0] : undefined;
  if (only !== undefined) {
    // A batch of one needs no savepoint: the transaction itself rolls back alone (and a
    // concurrent same-key append is found by the dedupe read of the retry below).
    for (let attempt = 1; ; attempt += 1) {
      try {
        return [
          await inTransaction(db, async (client) => {
            try {
              return await appendOne(db, client, only);
            } catch (e) {
              // Retried as a whole: a deadlock (by inTransaction), a lost dedupe race (once, below).
              if (isRetryable(e) || (sqlState(e) === UNIQUE_VIOLATION && attempt === 1)) throw e;
              throw new RequestFailed(e);
            }
          }),
        ];
      } catch (e) {
        if (sqlState(e) === UNIQUE_VIOLATION) continue;
        if (e instanceof RequestFailed) return [failedOutcome(e)];
        throw e;
      }
    }
  }
  // First without savepoints (two round trips fewer per request); a request that fails rolls
  // the whole attempt back, and the batch runs again with each request in its own savepoint.
  // A session whose rows another transaction holds past the lock bound fails alone: the other
  // sessions' requests go on.
  const locked: LockedSessions = new Map();
  let lockFirst = true;
  try {
    return await inTransaction(db, async (client) => {
      await lockBatch(db, client, batch);
      return await appendAllOrFail(db, client, batch, locked);
    });
  } catch (e) {
    // Only a request's own failure is retried this way: a failed BEGIN or COMMIT (the
    // connection) rejects, since a COMMIT whose answer was lost may have been applied. When
    // locking the batch's rows met the bound, which session's row is held is not known: each
    // request then locks its own (a deadlock this allows is retried whole by inTransaction).
    if (isLockedFailure(e)) lockFirst = false;
    else if (!(e instanceof RequestFailed)) throw e;
  }
  return inTransaction(db, async (client) => {
    if (lockFirst) await lockBatch(db, client, batch);
    const outcomes: AppendOutcome[] = [];
    for (const request of batch) outcomes.push(await appendIsolated(db, client, request, locked));
    return outcomes;
  });
}
