// Resetting a watcher session removes every cursor it holds.
import { eq } from 'drizzle-orm';
import { assertStoreKey } from '@session-state/domain';
import type { CursorPair, SessionKey } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { cursors } from './schema';
import type { StoreDb } from './storeDb';

/** Removes every cursor whose watcher is `watcher`; returns the removed pairs. */
export function resetWatcher(db: StoreDb, watcher: SessionKey): CursorPair[] {
  assertStoreKey('watcher', watcher);
  return toSortedPairs(
    db.orm.delete(cursors).where(eq(cursors.watcher, watcher)).returning({ watcher: cursors.watcher, target: cursors.target }).all(),
  );
}
