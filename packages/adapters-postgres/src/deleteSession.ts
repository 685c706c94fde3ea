// Deleting a session: its events and every cursor it is part of go; its head stays as a
// tombstone with the prune watermark raised over what was deleted.
import { assertStoreKey } from '@session-state/domain';
import type { CursorPair, SessionKey } from '@session-state/domain';

import { toSortedPairs } from './cursorPairs';
import { signalRemovedCursors } from './signalRemovedCursors';
import type { StoreDb } from './storeDb';
import { inTransaction, run } from './transaction';

/** In one transaction, holding the session's head-row lock so no append to it interleaves. */
export async function deleteSession(db: StoreDb, sessionKey: SessionKey): Promise<{ eventsDeleted: number; removedCursors: CursorPair[] }> {
  assertStoreKey('sessionKey', sessionKey);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    await run(client, st.lockHead, [sessionKey]);
    const [gone] = await run(client, st.deleteSessionEvents, [sessionKey]);
    const eventsDeleted = Number(gone?.[0] ?? 0);
    const highest = (gone?.[1] ?? null) as number | null;
    if (highest !== null) await run(client, st.raisePruneWatermarks, [[sessionKey], [highest]]);
    const removedCursors = toSortedPairs(await run(client, st.deleteCursorsOfSession, [sessionKey, sessionKey]));
    await signalRemovedCursors(db, client, removedCursors);
    return { eventsDeleted, removedCursors };
  });
}
