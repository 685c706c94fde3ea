// A changes page from `[head, pruneWatermark, ...event columns]` rows, and the one corrupt-row
// policy: a `limit + 1` read gives up on a corrupt row; then every row is read, each corrupt one skipped and reported.
import { asSequence, initialHead, type ChangesPage, type CorruptRowSink, type SignalLogHead, type StoredEvent } from '@session-state/domain';

import type { StoredEventDecoder } from './storedRow.js';

/** Where the event columns start in a changes row (after head and prune watermark). */
export const EVENT_OFFSET = 2;

/** The `limit` of the slow path's read: every retained row after `since`. */
export const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/** A head row's [head, pruneWatermark] from `offset`. */
export function headOfRow(row: readonly unknown[], offset = 0): SignalLogHead {
  return { head: asSequence(row[offset] as number), pruneWatermark: asSequence(row[offset + 1] as number) };
}

/** The page of a `limit + 1` read, or undefined when a row of it is corrupt (`decode` gave undefined). */
function pageOfRows<E>(rows: readonly (readonly unknown[])[], limit: number, decode: (row: readonly unknown[], offset: number) => E | undefined) {
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [] as E[], hasMore: false };
  const head = headOfRow(first);
  if (first[EVENT_OFFSET] === null) return { head, events: [] as E[], hasMore: false };
  const count = rows.length > limit ? limit : rows.length;
  const events: E[] = new Array<E>(count);
  for (let i = 0; i < count; i += 1) {
    const event = decode(rows[i] as readonly unknown[], EVENT_OFFSET);
    if (event === undefined) return undefined;
    events[i] = event;
  }
  return { head, events, hasMore: rows.length > limit };
}

/** `readChanges`' page of a `limit + 1` read, or undefined when a row of it is corrupt. */
export function changesPageOfRows(rows: readonly (readonly unknown[])[], limit: number, decode: StoredEventDecoder): ChangesPage | undefined {
  return pageOfRows<StoredEvent>(rows, limit, (row, offset) => {
    const decoded = decode(row, offset);
    return decoded.ok ? decoded.event : undefined;
  });
}

/** The page from every row after `since` (an `ALL_ROWS` read); each corrupt row is reported by sequence and skipped. */
export function changesPageSkippingCorrupt(rows: readonly (readonly unknown[])[], limit: number, decode: StoredEventDecoder, sink: CorruptRowSink): ChangesPage {
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  const events: StoredEvent[] = [];
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
