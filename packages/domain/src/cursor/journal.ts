// The cursor journal: each cursor event a store operation decides, with its pair, its clock time
// and the watermarks after it, so the cursor row is a snapshot replay can rebuild.
import { evolve, isCursorEvent, toWatermarks, type CursorState, type DecidedEvent, type CursorEvent, type Watermarks } from './cursor.js';
import { asSequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';

/** One entry to append; the watermarks are the cursor's after the event (for `watch_ended`, the ones it had). */
export interface CursorJournalRecord extends Watermarks {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly event: CursorEvent;
  /** The clock time of the operation. */
  readonly recordedAt: number;
}

/** A stored entry: the record and its position, which orders the whole journal. */
export interface CursorJournalEntry extends CursorJournalRecord {
  readonly position: number;
}

const NO_WATERMARKS: Watermarks = { acked: asSequence(0), notified: asSequence(0), material: asSequence(0) };

/** The records of the cursor events among `events`, decided for one pair whose cursor was `before`. */
export function journalRecords(watcher: SessionKey, target: SessionKey, before: CursorState, events: readonly DecidedEvent[], recordedAt: number): CursorJournalRecord[] {
  const records: CursorJournalRecord[] = [];
  let state = before;
  for (const event of events) {
    const after = evolve(state, event);
    if (isCursorEvent(event)) {
      const shown = after ?? state;
      const w = shown === undefined ? NO_WATERMARKS : toWatermarks(shown);
      records.push({ watcher, target, event, ...w, recordedAt });
    }
    state = after;
  }
  return records;
}
