// Resetting a watcher session removes every cursor it holds and ends each watch as `reset`.
import { assertStoreKey, type CursorPair, type SessionKey } from '@session-state/domain';

import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, run } from './transaction.js';

/** Removes every cursor whose watcher is `watcher`, journals and signals it; returns the removed pairs. */
export async function resetWatcher(db: StoreDb, watcher: SessionKey, now: number): Promise<CursorPair[]> {
  assertStoreKey('watcher', watcher);
  return inTransaction(db, async (client) => journalRemoval(db, client, 'resetWatcher', await run(client, db.statements.deleteCursorsOfWatcher, { watcher }), 'reset', now));
}
