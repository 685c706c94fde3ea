// The reads: one statement (one snapshot) each, outside a transaction, no lock; pages and the corrupt-row policy are adapters-sql-common's.
import { ALL_ROWS, changesPageOfRows, decodeStoredCursors, headRowOf, headsInKeyOrder, listCursorsQuery, overviewOfRows, storedEventDecoders } from '@session-state/adapters-sql-common';
import type { ChangesPage, CursorFilter, CursorRow, HeadRow, OverviewLimits, Sequence, SessionKey, StoreOverview } from '@session-state/domain';

import { readAlone, runAlone } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';

/** The event decoder, made once; the json payload column arrives parsed by the driver. */
export const { decodeEvent: decodeEventValues, decodeSessionEvent } = storedEventDecoders();

/** Retained events after `since`, at most `limit`, with the head of the same snapshot; a corrupt row is skipped and reported. */
export async function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage> {
  const st = db.statements.changesSince;
  const page = changesPageOfRows(await runAlone(db, st, { since, sessionKey, limit: limit + 1 }), limit, decodeSessionEvent);
  return page ?? changesPageOfRows(await runAlone(db, st, { since, sessionKey, limit: ALL_ROWS }), limit, decodeSessionEvent, db);
}

/** One row per distinct key with a head above 0, in the order first given; all of them, by key, when no keys are given. */
export async function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): Promise<HeadRow[]> {
  if (sessionKeys === undefined) return (await runAlone(db, db.statements.allHeads, {})).map(headRowOf);
  const wanted = [...new Set(sessionKeys)];
  if (wanted.length === 0) return [];
  return headsInKeyOrder(wanted, await runAlone(db, db.statements.headsOf, { sessionKeys: wanted }));
}

/** Durable cursors, optionally by watcher and/or target, by watcher then target. */
export async function listCursors(db: StoreDb, filter: CursorFilter = {}): Promise<CursorRow[]> {
  return decodeStoredCursors(db, 'listCursors', await readAlone(db, listCursorsQuery(db.tables, filter)));
}

/** The inspector's overview: the counts, then at most `limits` heads and cursors (pending first). */
export async function readOverview(db: StoreDb, limits: OverviewLimits): Promise<StoreOverview> {
  const { overviewCounts, firstHeads, firstPendingCursors, firstIdleCursors } = db.statements;
  // Limits of 0 (the pending-pairs gauge) cost the counts alone.
  const [[counts], heads, pending] = await Promise.all([
    runAlone(db, overviewCounts, {}),
    limits.heads > 0 ? runAlone(db, firstHeads, { limit: limits.heads }) : [],
    limits.cursors > 0 ? runAlone(db, firstPendingCursors, { limit: limits.cursors }) : [],
  ]);
  const idle = pending.length < limits.cursors ? await runAlone(db, firstIdleCursors, { limit: limits.cursors - pending.length }) : [];
  return overviewOfRows(db, counts ?? [], heads, [...pending, ...idle]);
}
