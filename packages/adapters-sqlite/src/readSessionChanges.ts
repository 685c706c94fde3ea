// The lean read behind `status`: a session's events after a sequence in the `stateChanges`
// shape, read with only the columns `status` returns, with the head they were read under.
import { sessionChangesPageOfRows, toSessionEvent, type SessionChangesPage, type Sequence, type SessionKey } from '@session-state/domain';

import { decodeSessionEventValues } from './eventRow';
import { readChanges } from './readChanges';
import type { StoreDb } from './storeDb';

/**
 * What `readChanges` returns, each event as `toSessionEvent` maps it, from one statement (one
 * snapshot). A corrupt row sends the whole read down `readChanges`, which skips and reports it.
 */
export function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): SessionChangesPage {
  const rows = db.statements.sessionChangesSince.all(since, sessionKey, limit + 1) as unknown[][];
  const page = sessionChangesPageOfRows(rows, limit, decodeSessionEventValues);
  if (page !== undefined) return page;
  const full = readChanges(db, sessionKey, since, limit);
  return { head: full.head, events: full.events.map(toSessionEvent), hasMore: full.hasMore };
}
