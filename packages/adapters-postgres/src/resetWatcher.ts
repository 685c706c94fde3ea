// Resetting a watcher session removes every cursor it holds.
import type { CursorPair, SessionKey } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

/** Removes every cursor whose watcher is `watcher` (one statement); returns the removed pairs. */
export async function resetWatcher(db: StoreDb, watcher: SessionKey): Promise<CursorPair[]> {
  return toSortedPairs(await runAlone(db, db.statements.deleteCursorsOfWatcher, [watcher]));
}
