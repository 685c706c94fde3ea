// Unwatch (issue 15): removes one pair's cursor and ends its watch as `unwatched`; the removal
// signals the target like any other (removeCursors.ts).
import { assertStoreKey, type SessionKey } from '@session-state/domain';

import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, run } from './transaction.js';

/** Removes the pair's cursor, if it has one, journals and signals it; `removed` says whether it had one. */
export async function unwatch(db: StoreDb, watcher: SessionKey, target: SessionKey, now: number): Promise<{ removed: boolean }> {
  assertStoreKey('watcher', watcher);
  assertStoreKey('target', target);
  return inTransaction(db, async (client) => ({
    removed: (await journalRemoval(db, client, 'unwatch', await run(client, db.statements.deleteCursorOfPair, { watcher, target }), 'unwatched', now)).length > 0,
  }));
}
