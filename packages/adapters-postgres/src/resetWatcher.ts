// Resetting a watcher session removes every cursor it holds.
import { assertStoreKey } from '@session-state/domain';
import type { CursorPair, SessionKey } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { signalRemovedCursors } from './signalRemovedCursors';
import type { StoreDb } from './storeDb';
import { inTransaction, run } from './transaction';

/** Removes every cursor whose watcher is `watcher`, signalling their targets; returns the removed pairs. */
export async function resetWatcher(db: StoreDb, watcher: SessionKey): Promise<CursorPair[]> {
  assertStoreKey('watcher', watcher);
  return inTransaction(db, async (client) => {
    const removed = toSortedPairs(await run(client, db.statements.deleteCursorsOfWatcher, [watcher]));
    await signalRemovedCursors(db, client, removed);
    return removed;
  });
}
