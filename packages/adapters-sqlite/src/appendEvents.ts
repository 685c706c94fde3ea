// The append operation: one BEGIN IMMEDIATE transaction per batch (group commit), each request
// in its own SAVEPOINT so a failure rolls back and fails only that request.
import type Database from 'better-sqlite3';
import { duplicateOutcome, failedOutcome, RequestFailed } from '@session-state/adapters-sql-common';
import {
  assertAppendRequest,
  asSequence,
  headAfterAppend,
  noticeTextRecent,
  planAppend,
  type AppendOutcome,
  type AppendRequest,
  type CursorRow,
  type NoticeTextOf,
} from '@session-state/domain';

import { writeJournal } from './cursorJournal.js';
import { decodeCursorsInPlace } from './cursorsInPlace.js';
import { decodeEventValues } from './eventRow.js';
import { moveCursor } from './statements.js';
import type { StoreDb } from './storeDb.js';

// --- what an open database keeps for its appends ----------------------------------------------

/**
 * Kept per open database so that one record allocates as little as it can (every byte is
 * garbage the next scavenge walks): the notice texts of recent (target, acked) pairs, and the
 * ISO text of the last append time.
 */
interface AppendMemo {
  readonly noticeText: NoticeTextOf;
  lastAppendedAt: number;
  lastOccurredAt: string;
}

/** The default `occurredAt` of an append at `appendedAt`; appends in the same millisecond share one string. */
function occurredAtOf(memo: AppendMemo, appendedAt: number): string {
  if (appendedAt !== memo.lastAppendedAt) {
    memo.lastOccurredAt = new Date(appendedAt).toISOString();
    memo.lastAppendedAt = appendedAt;
  }
  return memo.lastOccurredAt;
}

// --- one request (inside the caller's transaction or savepoint) ------------------------------

function appendOne(db: StoreDb, memo: AppendMemo, request: AppendRequest): AppendOutcome {
  // Before the dedupe lookup: an ill-formed key would match another key's row.
  assertAppendRequest(request);
  const st = db.statements;
  const { command, appendedAt, seedWatcher } = request;

  if (command.dedupeKey !== undefined) {
    const existing = st.eventByDedupeKey.get({ dedupeKey: command.dedupeKey });
    if (existing !== undefined) return duplicateOutcome(db, existing, decodeEventValues);
  }

  const cursorValues = st.cursorsOnTarget.all(command.sessionKey);
  if (command.onlyIfWatched && cursorValues.length === 0) return { type: 'skipped', reason: 'unwatched' };

  const occurredAt = command.occurredAt ?? occurredAtOf(memo, appendedAt);
  // Positional, in INSERT_EVENT_ORDER (the same values eventParams names for PostgreSQL).
  const inserted = st.insertEvent.run(
    command.sessionKey,
    command.kind,
    command.actorType,
    command.actorSessionKey ?? null,
    command.summary,
    // The JSON text taken when the input was validated: exactly what was checked, not serialised again.
    command.payloadJson ?? null,
    command.dedupeKey ?? null,
    occurredAt,
    appendedAt,
  );
  // AUTOINCREMENT: above every sequence this file ever assigned, hence above the session's head,
  // so the head is written as headAfterAppend gives it, without reading the row first.
  const sequence = asSequence(Number(inserted.lastInsertRowid));
  st.writeAppendedHead.run(command.sessionKey, headAfterAppend(sequence));

  const plan = planAppend({
    command,
    sequence,
    appendedAt,
    occurredAt,
    cursorsOnTarget: decodeCursorsInPlace(db, 'append', cursorValues),
    seedWatcher,
    noticeText: memo.noticeText,
  });
  const writes = plan.cursorWrites;
  for (let i = 0; i < writes.length; i += 1) {
    const row = writes[i] as CursorRow;
    // A seed may create the row (or overwrite one); every other write moves a row just read.
    if (row.watcher === seedWatcher) st.upsertCursor.run(row);
    else moveCursor(st, row);
  }
  if (plan.journal.length > 0) writeJournal(db, plan.journal);
  return { type: 'appended', event: plan.event, notices: plan.notices };
}

// --- the batch -----------------------------------------------------------------------------

interface AppendTransactions {
  /** BEGIN IMMEDIATE … COMMIT around the whole batch. */
  readonly batch: Database.Transaction<(batch: readonly AppendRequest[]) => AppendOutcome[]>;
}

// The native better-sqlite3 transaction functions are built once per open database (drizzle's
// `transaction()` builds a new one per call, which is measurable on the hot path); they run
// the same BEGIN IMMEDIATE / SAVEPOINT statements drizzle would.
const transactionsByDb = new WeakMap<StoreDb, AppendTransactions>();

function transactionsOf(db: StoreDb): AppendTransactions {
  let found = transactionsByDb.get(db);
  if (found === undefined) {
    // Nested inside `batch`, better-sqlite3 runs this as SAVEPOINT … RELEASE / ROLLBACK TO.
    const memo: AppendMemo = { noticeText: noticeTextRecent(), lastAppendedAt: Number.NaN, lastOccurredAt: '' };
    const request = db.client.transaction((r: AppendRequest) => appendOne(db, memo, r));
    const batch = db.client.transaction((requests: readonly AppendRequest[]): AppendOutcome[] => {
      const only = requests.length === 1 ? requests[0] : undefined;
      if (only !== undefined) {
        // A batch of one needs no savepoint: the transaction itself rolls back alone.
        try {
          return [appendOne(db, memo, only)];
        } catch (e) {
          throw new RequestFailed(e);
        }
      }
      return requests.map((r): AppendOutcome => {
        try {
          return request(r);
        } catch (e) {
          // An error that ended the whole transaction (I/O, disk full) fails the whole batch.
          if (!db.client.inTransaction) throw e;
          return failedOutcome(e);
        }
      });
    });
    found = { batch };
    transactionsByDb.set(db, found);
  }
  return found;
}

/**
 * Appends a batch in one write transaction, in order; see `StateStore.append`. A request that
 * fails alone is a `failed` outcome and leaves no trace. A failure of the transaction itself
 * (a closed database, busy beyond the timeout, a failed commit) throws, since no request of the
 * batch was kept; the store turns it into a StoreError rejection.
 */
export function appendEvents(db: StoreDb, batch: readonly AppendRequest[]): AppendOutcome[] {
  if (batch.length === 0) return [];
  try {
    return transactionsOf(db).batch.immediate(batch);
  } catch (e) {
    if (e instanceof RequestFailed) return [failedOutcome(e)];
    throw e;
  }
}
