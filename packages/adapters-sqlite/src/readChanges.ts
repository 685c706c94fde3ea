// Reads a session's retained events after a sequence, with the head they were read under; and
// the lean variant behind `status`. The page building and the corrupt-row policy are
// adapters-sql-common's changesPage.ts.
import {
  ALL_ROWS,
  changesPageOfRows,
  changesPageSkippingCorrupt,
  sessionChangesPageOfRows,
} from '@session-state/adapters-sql-common';
import { toSessionEvent, type ChangesPage, type Sequence, type SessionChangesPage, type SessionKey } from '@session-state/domain';

import { decodeEventValues, decodeSessionEventValues } from './eventRow.js';
import type { StoreDb } from './storeDb.js';

/**
 * Retained events with sequence > `since`, ascending, at most `limit`, and the head and prune
 * watermark from the same snapshot (one statement). A corrupt row is skipped and reported,
 * never thrown: every row after `since` is then read in one statement and the page filled from it.
 */
export function readChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
  const st = db.statements.changesSince;
  return (
    changesPageOfRows(st.all({ since, sessionKey, limit: limit + 1 }), limit, decodeEventValues) ??
    changesPageSkippingCorrupt(st.all({ since, sessionKey, limit: ALL_ROWS }), limit, decodeEventValues, db)
  );
}

/**
 * What `readChanges` returns, each event as `toSessionEvent` maps it, from one statement (one
 * snapshot) of only the columns `status` returns. A corrupt row sends the whole read down
 * `readChanges`, which skips and reports it.
 */
export function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): SessionChangesPage {
  const rows = db.statements.sessionChangesSince.all({ since, sessionKey, limit: limit + 1 });
  const page = sessionChangesPageOfRows(rows, limit, decodeSessionEventValues);
  if (page !== undefined) return page;
  const full = readChanges(db, sessionKey, since, limit);
  return { head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore };
}
