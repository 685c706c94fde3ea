// The reads: changes, heads, cursors, the overview and pending counts; none writes.
import {
  ALL_ROWS,
  changesPageOfRows,
  changesPageSkippingCorrupt,
  decodeStoredCursors,
  headRowOf,
  listCursorsQuery,
  overviewOfRows,
  sessionChangesPageOfRows,
  storedEventDecoders,
  type StoredEventDecoder,
  type StoredSessionEventDecoder,
} from '@session-state/adapters-sql-common';
import {
  toSessionEvent,
  type ChangesPage,
  type CursorFilter,
  type CursorRow,
  type HeadRow,
  type OverviewLimits,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
  type StoreOverview,
} from '@session-state/domain';

import { readRows } from '../db/compile.js';
import type { StoreDb } from '../db/storeDb.js';
import { tables } from '../schema.js';
import { withLogMaterial } from './logMaterial.js';

/** The payload column is JSON text; text that does not parse refuses the row. */
function parseJsonText(text: unknown): unknown {
  try {
    return JSON.parse(text as string) as unknown;
  } catch {
    return undefined;
  }
}

const decoders = storedEventDecoders(parseJsonText);
export const decodeEventValues: StoredEventDecoder = decoders.decodeEvent;
const decodeSessionEventValues: StoredSessionEventDecoder = decoders.decodeSessionEvent;

/** Retained events after `since`, at most `limit`, with the head from the same statement; a corrupt row is skipped and reported. */
export function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
  const st = db.statements.changesSince;
  return (
    changesPageOfRows(st.all({ since, sessionKey, limit: limit + 1 }), limit, decodeEventValues) ??
    changesPageSkippingCorrupt(st.all({ since, sessionKey, limit: ALL_ROWS }), limit, decodeEventValues, db)
  );
}

/** `readChanges` in `status`'s shape, from only its columns; a corrupt row sends the read down `readChanges`. */
export function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): SessionChangesPage {
  const rows = db.statements.sessionChangesSince.all({ since, sessionKey, limit: limit + 1 });
  const page = sessionChangesPageOfRows(rows, limit, decodeSessionEventValues);
  if (page !== undefined) return page;
  const full = readChanges(db, sessionKey, since, limit);
  return { head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore };
}

/** One row per distinct key with a head, in the order first given; every head by key when none are given. */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) return db.statements.allHeads.all({}).map(headRowOf);
  if (sessionKeys.length === 0) return [];
  // The keys travel as one JSON text; the rows come in key order, a repeated key's row again.
  const rows = db.statements.headsOfKeys.all({ keys: JSON.stringify(sessionKeys) });
  return firstOfEach(rows);
}

/** The first row of each head, repeats told by rowid in a byte array (a Set when rowids run far beyond the rows). */
function firstOfEach(rows: readonly (readonly unknown[])[]): HeadRow[] {
  let maxRowid = 0;
  for (const row of rows) maxRowid = Math.max(maxRowid, row[3] as number);
  const found: HeadRow[] = [];
  if (maxRowid <= 4 * rows.length + 1024) {
    const seen = new Uint8Array(maxRowid + 1);
    for (const row of rows) {
      const rowid = row[3] as number;
      if (seen[rowid] === 1) continue;
      seen[rowid] = 1;
      found.push(headRowOf(row));
    }
    return found;
  }
  const seen = new Set<unknown>();
  for (const row of rows) {
    if (seen.has(row[0])) continue;
    seen.add(row[0]);
    found.push(headRowOf(row));
  }
  return found;
}

export function listCursors(db: StoreDb, filter: CursorFilter = {}): CursorRow[] {
  return withLogMaterial(db, decodeStoredCursors(db, 'listCursors', readRows(db.client, listCursorsQuery(tables, filter))));
}

export function readOverview(db: StoreDb, limits: OverviewLimits): StoreOverview {
  const { overviewCounts, firstHeads, firstPendingCursors, firstIdleCursors } = db.statements;
  const pending = firstPendingCursors.all({ limit: limits.cursors });
  const idle = pending.length < limits.cursors ? firstIdleCursors.all({ limit: limits.cursors - pending.length }) : [];
  const overview = overviewOfRows(db, overviewCounts.get({}) ?? [], firstHeads.all({ limit: limits.heads }), [...pending, ...idle]);
  return { ...overview, cursors: withLogMaterial(db, overview.cursors) };
}

export function countPendingCursors(db: StoreDb): number {
  return Number((db.statements.countPendingCursors.get({}) as [number])[0]);
}
