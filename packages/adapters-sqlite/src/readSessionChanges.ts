// The lean read behind `status`: a session's events after a sequence in the `stateChanges`
// shape, read with only the columns `status` returns, with the head they were read under.
import { initialHead, toSessionEvent, type SessionChangesPage, type SessionEvent, type Sequence, type SessionKey } from '@session-state/domain';

import { decodeSessionEventValues } from './eventRow';
import { readChanges } from './readChanges';
import type { StoreDb } from './storeDb';

// Row layout of `sessionChangesSince`: [head, pruneWatermark, ...SessionEventValues].
const EVENT_OFFSET = 2;

/**
 * What `readChanges` returns, each event as `toSessionEvent` maps it, from one statement (one
 * snapshot). A corrupt row sends the whole read down `readChanges`, which skips and reports it.
 */
export function readSessionChanges(db: StoreDb, sessionKey: SessionKey, since: Sequence, limit: number): SessionChangesPage {
  const rows = db.statements.sessionChangesSince.all(since, sessionKey, limit + 1) as unknown[][];
  const first = rows[0];
  if (first === undefined) return { head: initialHead, events: [], hasMore: false };
  const head = { head: first[0] as Sequence, pruneWatermark: first[1] as Sequence };
  if (first[EVENT_OFFSET] === null) return { head, events: [], hasMore: false };
  const count = rows.length > limit ? limit : rows.length;
  const events: SessionEvent[] = new Array<SessionEvent>(count);
  for (let i = 0; i < count; i += 1) {
    const event = decodeSessionEventValues(rows[i] as unknown[], EVENT_OFFSET);
    if (event === undefined) {
      const page = readChanges(db, sessionKey, since, limit);
      return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
    }
    events[i] = event;
  }
  return { head, events, hasMore: rows.length > limit };
}
