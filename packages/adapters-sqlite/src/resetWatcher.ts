// Resetting a watcher session removes every cursor it holds and ends each watch as `reset`.
import { assertStoreKey, type CursorPair, type SessionKey } from '@session-state/domain';

import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';

/** Removes every cursor whose watcher is `watcher`, in one write transaction; returns the removed pairs. */
export function resetWatcher(db: StoreDb, watcher: SessionKey, now: number): CursorPair[] {
  assertStoreKey('watcher', watcher);
  return db.client
    .transaction((): CursorPair[] => journalRemoval(db, 'resetWatcher', db.statements.deleteCursorsOfWatcher.all({ watcher }), 'reset', now))
    .immediate();
}
