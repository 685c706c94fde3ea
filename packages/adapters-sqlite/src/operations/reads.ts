// The reads: changes, heads, cursors and the overview; none writes.
import { ALL_ROWS, changesPageOfRows, decodeStoredCursors, headRowOf, headsInKeyOrder, overviewOfRows, storedEventDecoders } from '@session-state/adapters-sql-common';
import type { ChangesPage, CursorFilter, CursorRow, HeadRow, OverviewLimits, Sequence, SessionKey, StoreOverview } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { filterStatement } from '../statements.js';
import { withLogMaterial } from './logMaterial.js';

/** The payload column is JSON text; text that does not parse refuses the row. */
function parseJsonText(text: unknown): unknown {
  try {
    return JSON.parse(text as string) as unknown;
  } catch {
    return undefined;
  }
}

export const { decodeEvent: decodeEventValues, decodeSessionEvent } = storedEventDecoders(parseJsonText);

/** Retained events after `since`, at most `limit`, with the head from the same statement; a corrupt row is skipped and reported. */
export function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
  const st = db.statements.changesSince;
  return (
    changesPageOfRows(st.all(sessionKey, since, sessionKey, limit + 1), limit, decodeSessionEvent) ??
    changesPageOfRows(st.all(sessionKey, since, sessionKey, ALL_ROWS), limit, decodeSessionEvent, db)
  );
}

/** One row per distinct key with a head, in the order first given; every head by key when none are given. */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) return db.statements.allHeads.all({}).map(headRowOf);
  if (sessionKeys.length === 0) return [];
  // The keys travel as one JSON text.
  return headsInKeyOrder(sessionKeys, db.statements.headsOfKeys.all({ keys: JSON.stringify(sessionKeys) }));
}

export function listCursors(db: StoreDb, filter: CursorFilter = {}): CursorRow[] {
  return withLogMaterial(db, decodeStoredCursors(db, 'listCursors', db.statements[`listCursors${filterStatement(filter)}`].all(filter)));
}

export function readOverview(db: StoreDb, limits: OverviewLimits): StoreOverview {
  const { overviewCounts, firstHeads, firstPendingCursors, firstIdleCursors } = db.statements;
  const pending = firstPendingCursors.all({ limit: limits.cursors });
  const idle = pending.length < limits.cursors ? firstIdleCursors.all({ limit: limits.cursors - pending.length }) : [];
  const overview = overviewOfRows(db, overviewCounts.get({}) ?? [], firstHeads.all({ limit: limits.heads }), [...pending, ...idle]);
  return { ...overview, cursors: withLogMaterial(db, overview.cursors) };
}
