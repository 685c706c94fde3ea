// The cursor journal: each cursor event a store operation decides, stored with its pair, its
// clock time and the cursor's watermarks after it, so the cursor row is a snapshot that replay
// can rebuild and an operator can read (`explainPair`). How a SQL row stores an entry is the
// SQL adapters' (adapters-sql-common's journalRow.ts).
import { evolve, toWatermarks, type CursorEvent, type CursorState, type Watermarks } from './cursor.js';
import { asSequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';

// --- entries -------------------------------------------------------------------------------

/**
 * One entry a planner asks a store to append (in the same transaction as the cursor row). The
 * watermarks are the cursor's AFTER the event; for `watch_ended`, the ones it had when it ended.
 */
export interface CursorJournalRecord extends Watermarks {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly event: CursorEvent;
  /** The clock time of the operation (the `now` or `appendedAt` it was given). */
  readonly recordedAt: number;
}

/** A stored entry: the record and its position, which orders the whole journal (append order). */
export interface CursorJournalEntry extends CursorJournalRecord {
  readonly position: number;
}

/**
 * The records of `events` decided for one pair whose cursor was `before`: each carries the
 * watermarks after folding it (the last ones before a `watch_ended`).
 */
export function journalRecords(
  watcher: SessionKey,
  target: SessionKey,
  before: CursorState,
  events: readonly CursorEvent[],
  recordedAt: number,
): CursorJournalRecord[] {
  const records: CursorJournalRecord[] = [];
  let state = before;
  for (const event of events) {
    const after = evolve(state, event);
    const shown = after ?? state;
    // A watch_ended on a pair without a cursor is never decided; zeros keep the type total.
    const w = shown === undefined ? { acked: asSequence(0), notified: asSequence(0), material: asSequence(0) } : toWatermarks(shown);
    records.push({ watcher, target, event, acked: w.acked, notified: w.notified, material: w.material, recordedAt });
    state = after;
  }
  return records;
}
