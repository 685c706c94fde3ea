// Reads a session's retained events after a sequence, with the head they were read under (one
// statement, so one snapshot); and the lean variant behind `status`. The page building and the
// corrupt-row policy are adapters-sql-common's changesPage.ts.
import {
  ALL_ROWS,
  changesPageOfRows,
  changesPageSkippingCorrupt,
  sessionChangesPageOfRows,
} from '@session-state/adapters-sql-common';
import { toSessionEvent, type ChangesPage, type Sequence, type SessionChangesPage, type SessionKey } from '@session-state/domain';

import { decodeEventValues, decodeSessionEventValues } from './eventRow.js';
import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';

/**
 * Retained events with sequence > `since`, ascending, at most `limit`, and the head from the
 * same snapshot. A corrupt row is skipped and reported: every row after `since` is then read in
 * one statement and the page filled from it.
 */
export async function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage> {
  const st = db.statements.changesSince;
  return (
    changesPageOfRows(await runAlone(db, st, { since, sessionKey, limit: limit + 1 }), limit, decodeEventValues) ??
    changesPageSkippingCorrupt(await runAlone(db, st, { since, sessionKey, limit: ALL_ROWS }), limit, decodeEventValues, db)
  );
}

/**
 * What `readChanges` returns, each event as `toSessionEvent` maps it, reading only the columns
 * `status` returns. A corrupt row sends the whole read down `readChanges`, which skips and reports it.
 */
export async function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): Promise<SessionChangesPage> {
  const rows = await runAlone(db, db.statements.sessionChangesSince, { since, sessionKey, limit: limit + 1 });
  const page = sessionChangesPageOfRows(rows, limit, decodeSessionEventValues);
  if (page !== undefined) return page;
  const full = await readChanges(db, sessionKey, since, limit);
  return { head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore };
}
