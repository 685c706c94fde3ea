// Append: one transaction per batch (group commit), sequences drawn under the head-row lock; on a request's failure, again with savepoints.
import { decodeStoredCursors, duplicateOutcome, eventParams, failedOutcome, headOfRow, RequestFailed } from '@session-state/adapters-sql-common';
import { assertAppendRequest, asSequence, planAppend, type AppendOutcome, type AppendRequest } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { isLockedFailure, sqlState } from '../connection/lockedFailure.js';
import { inTransaction, isRetryable, run, runBoth } from '../connection/transaction.js';
import { signalPairs } from '../signals/notify.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';
import { decodeEventValues } from './reads.js';

/** unique_violation: here, only a concurrent append that took the same dedupe key first. */
const UNIQUE_VIOLATION = '23505';

/** The sessions of a batch whose rows another transaction held past the lock bound, with that failure: their later requests fail at once. */
type LockedSessions = Map<string, unknown>;

/** The distinct session keys of a batch, in key order (the order every transaction locks heads in). */
export const sortedTargets = (batch: readonly AppendRequest[]): string[] => [...new Set(batch.map((request) => request.command.sessionKey))].sort();

/** The event already holding the dedupe key, as a duplicate outcome, if there is one. */
async function existingDuplicate(db: StoreDb, client: PoolClient, dedupeKey: string): Promise<AppendOutcome | undefined> {
  const [existing] = await run(client, db.statements.eventByDedupeKey, { dedupeKey });
  return existing === undefined ? undefined : duplicateOutcome(db, existing, decodeEventValues);
}

/** One request, inside the batch's transaction (or a savepoint of it). */
async function appendOne(db: StoreDb, client: PoolClient, request: AppendRequest): Promise<AppendOutcome> {
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
  // A named watcher's new cursor starts at the head before the event, read under the head-row lock.
  const [before] = command.watchers === undefined ? [] : await run(client, st.lockHead, { sessionKey: command.sessionKey });
  const params = eventParams(request);
  // The cursor read goes out with the insert and runs after it, once the head lock is held.
  const [[inserted], cursorValues] = await runBoth(run(client, st.appendEvent, params), run(client, st.cursorsOnTarget, { target: command.sessionKey }));
  if (inserted === undefined) throw new Error('the event insert returned no sequence');
  const sequence = asSequence(inserted[0] as number);
  const plan = planAppend({ command, sequence, appendedAt, occurredAt: params.occurredAt, cursorsOnTarget: decodeStoredCursors(db, 'append', cursorValues), seedWatcher, headBefore: before && headOfRow(before).head });
  // Only a cursor that became pending is signalled: a repeat keeps the notice its owner was told of.
  await runBoth(writeCursorPlan(db, client, plan), signalPairs(db, client, plan.notices.filter((notice) => notice.reason === 'first')));
  return { type: 'appended', event: plan.event, notices: plan.notices };
}

/** A request in its own savepoint: a failure rolls back only it; a concurrent same-key append that committed first makes it a duplicate. */
async function appendIsolated(db: StoreDb, client: PoolClient, request: AppendRequest, locked?: LockedSessions): Promise<AppendOutcome> {
  const sessionKey = request.command.sessionKey;
  if (locked?.has(sessionKey) === true) return failedOutcome(locked.get(sessionKey));
  await client.query('SAVEPOINT request');
  try {
    const outcome = await appendOne(db, client, request);
    await client.query('RELEASE SAVEPOINT request');
    return outcome;
  } catch (e) {
    // A deadlock or serialization failure retries the whole batch (inTransaction).
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
 * Every request in order: `isolated`, each in its own savepoint; else without savepoints, the first that fails throwing
 * `RequestFailed` (a retryable failure as it is).
 */
export async function appendEach(db: StoreDb, client: PoolClient, batch: readonly AppendRequest[], isolated: boolean, locked?: LockedSessions): Promise<AppendOutcome[]> {
  const outcomes: AppendOutcome[] = [];
  for (const request of batch) {
    try {
      outcomes.push(await (isolated ? appendIsolated(db, client, request, locked) : appendOne(db, client, request)));
    } catch (e) {
      if (isolated || isRetryable(e)) throw e;
      if (isLockedFailure(e)) locked?.set(request.command.sessionKey, e);
      throw new RequestFailed(e);
    }
  }
  return outcomes;
}

/** Appends a batch in one transaction, in order (`StateStore.append`); a request failing alone is `failed`, leaving no trace; a failed transaction rejects. */
export async function appendEvents(db: StoreDb, batch: readonly AppendRequest[]): Promise<AppendOutcome[]> {
  if (batch.length === 0) return [];
  const locked: LockedSessions = new Map();
  const targets = sortedTargets(batch);
  const attempt = (isolated: boolean, lockFirst = true): Promise<AppendOutcome[]> =>
    inTransaction(db, async (client) => {
      // A multi-session batch's heads, then its cursors, in key order: two gateways' batches never wait on each other in a cycle.
      if (lockFirst && targets.length > 1) await runBoth(run(client, db.statements.lockHeads, { sessionKeys: targets }), run(client, db.statements.lockCursorsOnTargets, { targets }));
      return await appendEach(db, client, batch, isolated, locked);
    });
  // A single request goes straight to its savepoint: a failure then reads (and reports) its rows once.
  if (batch.length > 1) {
    try {
      return await attempt(false);
    } catch (e) {
      // Only a request's own failure is retried (a failed COMMIT may have been applied), each request
      // then in a savepoint; when the batch lock met the bound, each locks its own rows.
      if (isLockedFailure(e)) return attempt(true, false);
      if (!(e instanceof RequestFailed)) throw e;
    }
  }
  return attempt(true);
}
