// Deleting a session: its events and every cursor it is part of go; its head stays as a
// tombstone with the prune watermark raised over what was deleted.
import { count, eq, max, or, sql } from 'drizzle-orm';
import { assertStoreKey } from '@session-state/domain';
import type { CursorPair, SessionKey } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { cursors, events, heads } from './schema';
import type { StoreDb } from './storeDb';

/** Removes the session's events and cursors in one write transaction; the head stays, its prune watermark raised. */
export function deleteSession(db: StoreDb, sessionKey: SessionKey): { eventsDeleted: number; removedCursors: CursorPair[] } {
  assertStoreKey('sessionKey', sessionKey);
  return db.orm.transaction(
    (tx) => {
      const found = tx
        .select({ n: count(), highest: max(events.sequence) })
        .from(events)
        .where(eq(events.sessionKey, sessionKey))
        .get();
      const eventsDeleted = found?.n ?? 0;
      const highest = found?.highest ?? null;
      if (eventsDeleted > 0) {
        tx.delete(events).where(eq(events.sessionKey, sessionKey)).run();
      }
      if (highest !== null) {
        tx.update(heads)
          .set({ pruneWatermark: sql`max(${heads.pruneWatermark}, ${highest})` })
          .where(eq(heads.sessionKey, sessionKey))
          .run();
      }
      const removed = tx
        .delete(cursors)
        .where(or(eq(cursors.watcher, sessionKey), eq(cursors.target, sessionKey)))
        .returning({ watcher: cursors.watcher, target: cursors.target })
        .all();
      return { eventsDeleted, removedCursors: toSortedPairs(removed) };
    },
    { behavior: 'immediate' },
  );
}
