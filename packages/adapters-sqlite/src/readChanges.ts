// Reads a session's retained events after a sequence, with the head they were read under.
import {
  asSequence,
  initialHead,
  type ChangesPage,
  type Sequence,
  type SessionKey,
  type SignalLogHead,
  type StoredEvent,
} from '@session-state/domain';

import { decodeEventValues } from './eventRow';
import type { StoreDb } from './storeDb';

// Row layout of `changesSince`: [head, pruneWatermark, ...EventValues].
const EVENT_OFFSET = 2;

function headOfRow(row: readonly unknown[]): SignalLogHead {
  return { head: asSequence(row[0] as number), pruneWatermark: asSequence(row[1] as number) };
}

/**
 * Retained events with sequence > `since`, ascending, at most `limit`, and the head and prune
 * watermark from the same snapshot (one statement). A row that cannot be decoded is skipped
 * and reported, never thrown: see `readSkippingCorrupt`.
 */
export function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
  const rows = db.statements.changesSince.all(since, sessionKey, limit + 1) as unknown[][];
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  const head = headOfRow(first);
  if (first[EVENT_OFFSET] === null) return { head, events: [], hasMore: false };
  const count = rows.length > limit ? limit : rows.length;
  const events: StoredEvent[] = new Array<StoredEvent>(count);
  for (let i = 0; i < count; i += 1) {
    const decoded = decodeEventValues(rows[i] as unknown[], EVENT_OFFSET);
    if (!decoded.ok) return readSkippingCorrupt(db, sessionKey, since, limit);
    events[i] = decoded.event;
  }
  return { head, events, hasMore: rows.length > limit };
}

/**
 * The slow path once a corrupt row was met: page on inside one read transaction (one
 * snapshot), skipping and reporting each corrupt row, until `limit` good events and one more
 * were found or the log ends. So a page is never cut short and paging never stalls on it.
 */
function readSkippingCorrupt(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
  const read = db.client.transaction((): ChangesPage => {
    let head: SignalLogHead = initialHead;
    const events: StoredEvent[] = [];
    let after = since;
    let hasMore = false;
    for (;;) {
      const rows = db.statements.changesSince.all(after, sessionKey, limit + 1) as unknown[][];
      const first = rows[0];
      if (first === undefined) return { head, events, hasMore: false };
      head = headOfRow(first);
      if (first[EVENT_OFFSET] === null) break;
      for (const row of rows) {
        const sequence = row[EVENT_OFFSET] as number;
        after = asSequence(sequence);
        const decoded = decodeEventValues(row, EVENT_OFFSET);
        if (!decoded.ok) {
          db.onCorruptRow({ operation: 'readChanges', table: 'events', sequence, reason: decoded.reason });
          continue;
        }
        if (events.length === limit) {
          hasMore = true;
          break;
        }
        events.push(decoded.event);
      }
      if (hasMore || rows.length <= limit) break;
    }
    return { head, events, hasMore };
  });
  return read.deferred();
}
