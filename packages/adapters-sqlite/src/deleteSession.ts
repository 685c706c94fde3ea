// Deleting a session: its events and every cursor it is part of go (each watch ends as
// `deleted`); its head stays as a tombstone with the prune watermark raised over what was
// deleted, as `planHeadWrite` computes it.
import { asSequence, assertStoreKey, type CursorPair, type SessionKey } from '@session-state/domain';

import { readRows, runWrite } from './compile.js';
import { writeHead } from './headRow.js';
import { journalRemoval } from './removeCursors.js';
import { events } from './schema.js';
import type { StoreDb } from './storeDb.js';
import { orm } from './drizzle.js';

const { count, eq, max } = orm;

/** Removes the session's events and cursors in one write transaction; the head stays, its prune watermark raised. */
export function deleteSession(db: StoreDb, sessionKey: SessionKey, now: number): { eventsDeleted: number; removedCursors: CursorPair[] } {
  assertStoreKey('sessionKey', sessionKey);
  const { orm } = db;
  return db.client
    .transaction(() => {
      const [found] = readRows(db.client, orm.select({ n: count(), highest: max(events.sequence) }).from(events).where(eq(events.sessionKey, sessionKey)));
      const eventsDeleted = Number(found?.[0] ?? 0);
      const highest = (found?.[1] ?? null) as number | null;
      if (eventsDeleted > 0) runWrite(db.client, orm.delete(events).where(eq(events.sessionKey, sessionKey)));
      // A session with events has a head row; planHeadWrite only raises its watermark.
      if (highest !== null) writeHead(db, sessionKey, [{ type: 'deleted', highestDeleted: asSequence(highest) }]);
      const deleted = db.statements.deleteCursorsOfSession.all({ sessionKey });
      return { eventsDeleted, removedCursors: journalRemoval(db, 'deleteSession', deleted, 'deleted', now) };
    })
    .immediate();
}
