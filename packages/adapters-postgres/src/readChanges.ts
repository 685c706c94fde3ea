// Reads a session's retained events after a sequence, with the head they were read under (one
// statement, so one snapshot); and the lean variant behind `status`.
import {
  initialHead,
  sessionChangesPageOfRows,
  toSessionEvent,
  type ChangesPage,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
  type SignalLogHead,
  type StoredEvent,
} from '@session-state/domain';

import { decodeEventValues, decodeSessionEventValues } from './eventRow';
import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

// Row layout of both reads: [head, pruneWatermark, ...event columns].
const EVENT_OFFSET = 2;

function headOfRow(row: readonly unknown[]): SignalLogHead {
  return { head: row[0] as Sequence, pruneWatermark: row[1] as Sequence };
}

/**
 * Retained events with sequence > `since`, ascending, at most `limit`, and the head from the
 * same snapshot. A row that cannot be decoded is reported and skipped; the page is then filled
 * from the rows after it (read by the same statement, which asked for enough of them).
 */
export async function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage> {
  let rows = await runAlone(db, db.statements.changesSince, [since, sessionKey, limit + 1]);
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  if (first[EVENT_OFFSET] === null) return { head: headOfRow(first), events: [], hasMore: false };
  let events = decodeAll(db, rows);
  if (events.skipped > 0) {
    // Corrupt rows were met: read everything after `since` in one statement (one snapshot)
    // so the page is still full and paging never stalls on them. Only hand-edited databases get here.
    rows = await runAlone(db, db.statements.changesSince, [since, sessionKey, Number.MAX_SAFE_INTEGER]);
    events = decodeAll(db, rows, false);
  }
  const head = headOfRow(rows[0] ?? first);
  return { head, events: events.decoded.slice(0, limit), hasMore: events.decoded.length > limit };
}

function decodeAll(db: StoreDb, rows: readonly unknown[][], quiet = true): { decoded: StoredEvent[]; skipped: number } {
  const decoded: StoredEvent[] = [];
  let skipped = 0;
  for (const row of rows) {
    if (row[EVENT_OFFSET] === null) continue;
    const result = decodeEventValues(row, EVENT_OFFSET);
    if (result.ok) {
      decoded.push(result.event);
      continue;
    }
    skipped += 1;
    if (!quiet) db.onCorruptRow({ operation: 'readChanges', table: 'events', sequence: row[EVENT_OFFSET] as number, reason: result.reason });
  }
  return { decoded, skipped };
}

/**
 * What `readChanges` returns, each event as `toSessionEvent` maps it, reading only the columns
 * `status` returns. A corrupt row sends the whole read down `readChanges`, which skips and reports it.
 */
export async function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): Promise<SessionChangesPage> {
  const rows = await runAlone(db, db.statements.sessionChangesSince, [since, sessionKey, limit + 1]);
  const page = sessionChangesPageOfRows(rows, limit, decodeSessionEventValues);
  if (page !== undefined) return page;
  const full = await readChanges(db, sessionKey, since, limit);
  return { head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore };
}
