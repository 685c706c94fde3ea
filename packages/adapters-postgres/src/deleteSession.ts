// Deleting a session: its events and every cursor it is part of go (each watch ends as
// `deleted`); its head stays as a tombstone with the prune watermark raised over what was
// deleted, as `planHeadWrite` computes it from the locked head row.
import { headOfRow } from '@session-state/adapters-sql-common';
import { asSequence, assertStoreKey, type CursorPair, type SessionKey } from '@session-state/domain';

import { writeHeads } from './headRows.js';
import { journalRemoval } from './removeCursors.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, run } from './transaction.js';

/** In one transaction, holding the session's head-row lock so no append to it interleaves. */
export async function deleteSession(db: StoreDb, sessionKey: SessionKey, now: number): Promise<{ eventsDeleted: number; removedCursors: CursorPair[] }> {
  assertStoreKey('sessionKey', sessionKey);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    const [locked] = await run(client, st.lockHead, { sessionKey });
    const [gone] = await run(client, st.deleteSessionEvents, { sessionKey });
    const eventsDeleted = Number(gone?.[0] ?? 0);
    const highest = (gone?.[1] ?? null) as number | null;
    if (highest !== null && locked !== undefined) {
      await writeHeads(db, client, [{ sessionKey, locked: headOfRow(locked), events: [{ type: 'deleted', highestDeleted: asSequence(highest) }] }]);
    }
    const deleted = await run(client, st.deleteCursorsOfSession, { sessionKey });
    return { eventsDeleted, removedCursors: await journalRemoval(db, client, 'deleteSession', deleted, 'deleted', now) };
  });
}
