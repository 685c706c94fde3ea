// Resetting a watcher session removes every cursor it holds and ends each watch as `reset`.
import { eq } from 'drizzle-orm';
import { assertStoreKey, type CursorPair, type SessionKey } from '@session-state/domain';

import { journalRemoval } from './removeCursors';
import { cursors } from './schema';
import { cursorColumns } from './statements';
import type { StoreDb } from './storeDb';

/** Removes every cursor whose watcher is `watcher`, in one write transaction; returns the removed pairs. */
export function resetWatcher(db: StoreDb, watcher: SessionKey, now: number): CursorPair[] {
  assertStoreKey('watcher', watcher);
  return db.client
    .transaction((): CursorPair[] => {
      const deleted = db.orm.delete(cursors).where(eq(cursors.watcher, watcher)).returning(cursorColumns).values();
      return journalRemoval(db, 'resetWatcher', deleted, 'reset', now);
    })
    .immediate();
}
