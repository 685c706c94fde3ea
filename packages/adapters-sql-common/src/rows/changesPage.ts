// Changes pages from [head, pruneWatermark, earliest retained, ...event] rows: a `limit + 1` read gives up on a corrupt row, a full read skips and reports each.
import { asSequence, initialHead, type ChangesPage, type CorruptRowSink, type SessionEvent, type SignalLogHead } from '@session-state/domain';

import type { StoredEventDecoder } from './storedRow.js';

/** Where the event columns start in a changes row (after head, prune watermark and earliest retained). */
const EVENT_OFFSET = 3;

/** The `limit` of the slow path's read: every retained row after `since`. */
export const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/** A head row's [head, pruneWatermark] from `offset`. */
export function headOfRow(row: readonly unknown[], offset = 0): SignalLogHead {
  return { head: asSequence(row[offset] as number), pruneWatermark: asSequence(row[offset + 1] as number) };
}

type Rows = readonly (readonly unknown[])[];

/**
 * `readChanges`' page of the rows after `since`: of a `limit + 1` read without `sink`, undefined
 * when a row is corrupt; of an `ALL_ROWS` read with it, each corrupt row reported by sequence and skipped.
 */
export function changesPageOfRows(rows: Rows, limit: number, decode: StoredEventDecoder<SessionEvent>): ChangesPage | undefined;
export function changesPageOfRows(rows: Rows, limit: number, decode: StoredEventDecoder<SessionEvent>, sink: CorruptRowSink): ChangesPage;
export function changesPageOfRows(rows: Rows, limit: number, decode: StoredEventDecoder<SessionEvent>, sink?: CorruptRowSink): ChangesPage | undefined {
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false, earliestRetained: initialHead.head };
  const events: SessionEvent[] = [];
  let hasMore = false;
  for (const row of rows) {
    if (row[EVENT_OFFSET] === null) break;
    const decoded = decode(row, EVENT_OFFSET);
    if (!decoded.ok) {
      if (sink === undefined) return undefined;
      sink.onCorruptRow({ operation: 'readChanges', table: 'events', sequence: row[EVENT_OFFSET] as number, reason: decoded.reason });
      continue;
    }
    if (events.length === limit) {
      hasMore = true;
      break;
    }
    events.push(decoded.event);
  }
  return { head: headOfRow(first), events, hasMore, earliestRetained: asSequence((first[2] as number | null) ?? 0) };
}
