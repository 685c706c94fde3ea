// Unwatch (issue 15): removes one pair's cursor and ends its watch as `unwatched`.
import { assertStoreKey, type SessionKey } from '@session-state/domain';

import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';

/** Removes the pair's cursor, if it has one, in one write transaction; `removed` says whether it had one. */
export function unwatch(db: StoreDb, watcher: SessionKey, target: SessionKey, now: number): { removed: boolean } {
  assertStoreKey('watcher', watcher);
  assertStoreKey('target', target);
  return db.client
    .transaction(() => ({ removed: journalRemoval(db, 'unwatch', db.statements.deleteCursorOfPair.all({ watcher, target }), 'unwatched', now).length > 0 }))
    .immediate();
}
