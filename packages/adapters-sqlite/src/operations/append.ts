// Append: one BEGIN IMMEDIATE transaction per batch, each request in its own SAVEPOINT; a record
// on a target with many cursors ends its batch's transaction and fans out in pages (fanOut.ts).
import { decodeStoredCursors, duplicateOutcome, failedOutcome, RequestFailed } from '@session-state/adapters-sql-common';
import { assertAppendRequest, asSequence, planAppend, toStoredEvent, type AppendOutcome, type AppendRequest, type CursorRow } from '@session-state/domain';

import { decodeEventValues } from './reads.js';
import { fanOut, FAN_OUT_INLINE_CURSORS, writeAppendPlan, type OwedFanOut } from './fanOut.js';
import { withLogMaterial, writeAppendedHead } from './logMaterial.js';
import { perDb, type StoreDb } from '../db/storeDb.js';

/** `memo` (kept per open database) holds the owed fan-out of the batch in progress. */
function appendOne(db: StoreDb, memo: { owed: OwedFanOut | undefined }, request: AppendRequest): AppendOutcome {
  // Before the dedupe lookup: an ill-formed key would match another key's row.
  assertAppendRequest(request);
  const st = db.statements;
  const { command, appendedAt, seedWatcher } = request;

  if (command.dedupeKey !== undefined) {
    const existing = st.eventByDedupeKey.get({ dedupeKey: command.dedupeKey });
    if (existing !== undefined) return duplicateOutcome(db, existing, decodeEventValues);
  }

  // A spawn edge steps all its target's cursors in its own transaction.
  const cursorValues = seedWatcher === undefined ? st.firstCursors.all(command.sessionKey) : st.cursorsOnTarget.all(command.sessionKey);
  if (command.onlyIfWatched && cursorValues.length === 0) return { type: 'skipped', reason: 'unwatched' };

  const occurredAt = command.occurredAt ?? new Date(appendedAt).toISOString();
  // Positional, in INSERT_EVENT_ORDER; the payload is the JSON text validated, not serialised again.
  const inserted = st.insertEvent.run(
    command.sessionKey,
    command.kind,
    command.actorType,
    command.actorSessionKey ?? null,
    command.summary,
    command.payloadJson ?? null,
    command.dedupeKey ?? null,
    occurredAt,
    appendedAt,
  );
  // AUTOINCREMENT is above the session's head, so the head is written without reading it first.
  const sequence = asSequence(Number(inserted.lastInsertRowid));
  writeAppendedHead(db, command.sessionKey, sequence, command, appendedAt);
  if (seedWatcher === undefined && cursorValues.length > FAN_OUT_INLINE_CURSORS) {
    // Owed durably in this transaction: a crash before its pages end is finished at the next start.
    st.insertFanOut.run({ sequence, target: command.sessionKey, after: 0 });
    memo.owed = { command, sequence, appendedAt, occurredAt, afterRowid: 0 };
    return { type: 'appended', event: toStoredEvent(command, sequence, appendedAt, occurredAt), notices: [] };
  }

  const cursorsOnTarget = decodeStoredCursors(db, 'append', cursorValues);
  // The seed's replaced cursor is journalled with its material as logMaterial.ts reads it.
  const seedAt = seedWatcher === undefined ? -1 : cursorsOnTarget.findIndex((row) => row.watcher === seedWatcher);
  if (seedAt >= 0) cursorsOnTarget[seedAt] = withLogMaterial(db, [cursorsOnTarget[seedAt] as CursorRow])[0] as CursorRow;
  const plan = planAppend({ command, sequence, appendedAt, occurredAt, cursorsOnTarget, seedWatcher });
  writeAppendPlan(db, plan, seedWatcher);
  return { type: 'appended', event: plan.event, notices: plan.notices };
}

/** The driver's transaction functions and the append memo, built once per open database. */
const transactionsOf = perDb((db) => {
  const memo = { owed: undefined as OwedFanOut | undefined };
  // Nested inside `batch`, this runs as a SAVEPOINT.
  const request = db.client.transaction((r: AppendRequest) => appendOne(db, memo, r));
  /** BEGIN IMMEDIATE … COMMIT around the batch, up to its first request whose fan-out is paged. */
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
    const outcomes: AppendOutcome[] = [];
    for (let i = 0; i < requests.length && memo.owed === undefined; i += 1) {
      try {
        outcomes.push(request(requests[i] as AppendRequest));
      } catch (e) {
        // An error that ended the whole transaction (I/O, disk full) fails the whole batch.
        if (!db.client.inTransaction) throw e;
        outcomes.push(failedOutcome(e));
      }
    }
    return outcomes;
  });
  return { batch, memo };
});

/** One transaction over the batch's first requests (all, unless one's fan-out is paged: that one is the last) and the fan-out it owes. */
function appendPart(db: StoreDb, batch: readonly AppendRequest[]): { outcomes: AppendOutcome[]; owed: OwedFanOut | undefined } {
  const { batch: transaction, memo } = transactionsOf(db);
  memo.owed = undefined;
  try {
    return { outcomes: transaction.immediate(batch), owed: memo.owed };
  } catch (e) {
    memo.owed = undefined;
    if (e instanceof RequestFailed) return { outcomes: [failedOutcome(e)], owed: undefined };
    throw e;
  }
}

/** The rest of a batch after a paged fan-out: its pages, then the requests after it, in order. */
async function appendAfterFanOut(db: StoreDb, batch: readonly AppendRequest[], outcomes: AppendOutcome[], first: OwedFanOut): Promise<AppendOutcome[]> {
  let owed: OwedFanOut | undefined = first;
  while (owed !== undefined) {
    const at = outcomes.length - 1;
    const appended = outcomes[at] as Extract<AppendOutcome, { type: 'appended' }>;
    outcomes[at] = { ...appended, notices: await fanOut(db, owed) };
    if (outcomes.length === batch.length) break;
    try {
      const part = appendPart(db, batch.slice(outcomes.length));
      outcomes.push(...part.outcomes);
      owed = part.owed;
    } catch (e) {
      // The requests before were committed: only the rest fail.
      while (outcomes.length < batch.length) outcomes.push(failedOutcome(e));
      break;
    }
  }
  return outcomes;
}

/**
 * Appends a batch in order: a request that fails alone is a `failed` outcome; a failure of the
 * first transaction itself throws. A batch with a paged fan-out answers with a promise.
 */
export function appendEvents(db: StoreDb, batch: readonly AppendRequest[]): AppendOutcome[] | Promise<AppendOutcome[]> {
  if (batch.length === 0) return [];
  const { outcomes, owed } = appendPart(db, batch);
  return owed === undefined ? outcomes : appendAfterFanOut(db, batch, outcomes, owed);
}
