// Changes pages from [head, pruneWatermark, ...event] rows: a `limit + 1` read gives up on a corrupt row, a full read skips and reports each.
import { asSequence, initialHead, type ChangesPage, type CorruptRowSink, type SessionEvent, type SignalLogHead } from '@session-state/domain';

import type { StoredEventDecoder } from './storedRow.js';

/** Where the event columns start in a changes row (after head and prune watermark). */
const EVENT_OFFSET = 2;

/** The `limit` of the slow path's read: every retained row after `since`. */
export const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/** A head row's [head, pruneWatermark] from `offset`. */
export function headOfRow(row: readonly unknown[], offset = 0): SignalLogHead {
  return { head: asSequence(row[offset] as number), pruneWatermark: asSequence(row[offset + 1] as number) };
}

/** `readChanges`' page of a `limit + 1` read, or undefined when a row of it is corrupt. */
export function changesPageOfRows(rows: readonly (readonly unknown[])[], limit: number, decode: StoredEventDecoder<SessionEvent>): ChangesPage | undefined {
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  const head = headOfRow(first);
  if (first[EVENT_OFFSET] === null) return { head, events: [], hasMore: false };
  const events: SessionEvent[] = new Array<SessionEvent>(Math.min(limit, rows.length));
  for (let i = 0; i < events.length; i += 1) {
    const decoded = decode(rows[i] as readonly unknown[], EVENT_OFFSET);
    if (!decoded.ok) return undefined;
    events[i] = decoded.event;
  }
  return { head, events, hasMore: rows.length > limit };
}

/** The page from every row after `since` (an `ALL_ROWS` read); each corrupt row is reported by sequence and skipped. */
export function changesPageSkippingCorrupt(rows: readonly (readonly unknown[])[], limit: number, decode: StoredEventDecoder<SessionEvent>, sink: CorruptRowSink): ChangesPage {
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  const events: SessionEvent[] = [];
  let hasMore = false;
  for (const row of rows) {
    if (row[EVENT_OFFSET] === null) break;
    const decoded = decode(row, EVENT_OFFSET);
    if (!decoded.ok) {
      sink.onCorruptRow({ operation: 'readChanges', table: 'events', sequence: row[EVENT_OFFSET] as number, reason: decoded.reason });
      continue;
    }
    if (events.length === limit) {
      hasMore = true;
      break;
    }
    events.push(decoded.event);
  }
  return { head: headOfRow(first), events, hasMore };
}
