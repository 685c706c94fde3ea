// Append: one BEGIN IMMEDIATE transaction per batch, each request in its own SAVEPOINT; a cursor
// whose material alone rose is not written, since the head's notify marks hold it (logMaterial.ts).
import { decodeStoredCursors, duplicateOutcome, eventParams, failedOutcome, RequestFailed } from '@session-state/adapters-sql-common';
import { assertAppendRequest, asSequence, kindClass, planAppend, type AppendOutcome, type AppendRequest, type CursorRow } from '@session-state/domain';

import { decodeEventValues } from './reads.js';
import { writeJournal } from './journal.js';
import { readHead, withLogMaterial } from './logMaterial.js';
import type { StoreDb } from '../db/storeDb.js';
import type { Transaction } from '../driver/driver.js';
import { cursorParams, moveCursor } from '../statements.js';

function appendOne(db: StoreDb, request: AppendRequest): AppendOutcome {
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
  // Where a named watcher's new cursor starts.
  const headBefore = command.watchers === undefined ? undefined : readHead(db, command.sessionKey)?.head;

  // Positional, in INSERT_EVENT_ORDER.
  const v = eventParams(request);
  const inserted = st.insertEvent.run(v.sessionKey, v.kind, v.actorType, v.actorSessionKey, v.summary, v.payload, v.dedupeKey, v.occurredAt, v.appendedAt);
  // AUTOINCREMENT is above the session's head, so the head is written without reading it first;
  // a notifying event moves its notify marks.
  const sequence = asSequence(Number(inserted.lastInsertRowid));
  const notifies = kindClass(command.kind) === 'notify' ? 1 : 0;
  st.writeAppendedHead.run({ sessionKey: command.sessionKey, head: sequence, notifies, actor: command.actorSessionKey ?? null, at: appendedAt });

  const cursorsOnTarget = decodeStoredCursors(db, 'append', cursorValues);
  // The seed's replaced cursor is journalled with its material as logMaterial.ts reads it.
  const seedAt = seedWatcher === undefined ? -1 : cursorsOnTarget.findIndex((row) => row.watcher === seedWatcher);
  if (seedAt >= 0) cursorsOnTarget[seedAt] = withLogMaterial(db, [cursorsOnTarget[seedAt] as CursorRow])[0] as CursorRow;
  const plan = planAppend({ command, sequence, appendedAt, occurredAt: v.occurredAt, cursorsOnTarget, seedWatcher, headBefore });
  const writes = plan.cursorWrites;
  for (let i = 0; i < writes.length; i += 1) {
    const row = writes[i] as CursorRow;
    if (row.watcher === seedWatcher || command.watchers?.includes(row.watcher) === true) st.upsertCursor.run(cursorParams(row));
    else if (row.material === row.notified) moveCursor(st, row);
  }
  if (plan.journal.length > 0) writeJournal(db, plan.journal);
  return { type: 'appended', event: plan.event, notices: plan.notices };
}

/** Each open database's append transaction function, built at its first append. */
const batches = new WeakMap<StoreDb, Transaction<[readonly AppendRequest[]], AppendOutcome[]>>();

function batchOf(db: StoreDb): Transaction<[readonly AppendRequest[]], AppendOutcome[]> {
  let batch = batches.get(db);
  if (batch !== undefined) return batch;
  // Nested inside `batch`, this runs as a SAVEPOINT.
  const request = db.client.transaction((r: AppendRequest) => appendOne(db, r));
  batch = db.client.transaction((requests: readonly AppendRequest[]): AppendOutcome[] => {
    // A batch of one needs no savepoint: the transaction itself rolls back alone.
    const single = requests.length === 1;
    return requests.map((r): AppendOutcome => {
      try {
        return single ? appendOne(db, r) : request(r);
      } catch (e) {
        if (single) throw new RequestFailed(e);
        // An error that ended the whole transaction (I/O, disk full) fails the whole batch.
        if (!db.client.inTransaction) throw e;
        return failedOutcome(e);
      }
    });
  });
  batches.set(db, batch);
  return batch;
}

/** Appends a batch in order, in one transaction: a request that fails alone is a `failed` outcome; a failure of the transaction itself throws. */
export function appendEvents(db: StoreDb, batch: readonly AppendRequest[]): AppendOutcome[] {
  if (batch.length === 0) return [];
  try {
    return batchOf(db).immediate(batch);
  } catch (e) {
    if (e instanceof RequestFailed) return [failedOutcome(e)];
    throw e;
  }
}
