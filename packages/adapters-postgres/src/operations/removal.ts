// Removing cursors (unwatch, resetWatcher, deleteSession): the DELETE … RETURNING rows planned by planRemoval, journalled and signalled.
import { decodeStoredCursors, headOfRow, planHeadWrites, type HeadRowWrite } from '@session-state/adapters-sql-common';
import { asSequence, assertStoreKey, planRemoval, type CursorPair, type EndReason, type SessionKey } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { inTransaction, run } from '../connection/transaction.js';
import { signalPairs } from '../signals/notify.js';
import type { StoreDb } from '../storeDb.js';
import { writeJournal } from './journal.js';

/** Journals and signals the removal of `deleted` (CursorValues rows the transaction deleted); a corrupt row is reported and left out. */
export async function journalRemoval(db: StoreDb, client: PoolClient, operation: string, deleted: readonly (readonly unknown[])[], reason: EndReason, now: number): Promise<CursorPair[]> {
  const plan = planRemoval({ cursors: decodeStoredCursors(db, operation, deleted), reason, now });
  await writeJournal(db, client, plan.journal);
  await signalPairs(db, client, plan.removed);
  return [...plan.removed];
}

/** Writes planned head rows (each locked by the caller, so none is an insert). */
export async function writeHeads(db: StoreDb, client: PoolClient, writes: readonly HeadRowWrite[]): Promise<void> {
  if (writes.length === 0) return;
  await run(client, db.statements.writeHeads, { sessionKeys: writes.map((w) => w.sessionKey), heads: writes.map((w) => w.head), pruneWatermarks: writes.map((w) => w.pruneWatermark) });
}

/** Removes the pair's cursor, if it has one, ending its watch as `unwatched`. */
export async function unwatch(db: StoreDb, watcher: SessionKey, target: SessionKey, now: number): Promise<{ removed: boolean }> {
  assertStoreKey('watcher', watcher);
  assertStoreKey('target', target);
  return inTransaction(db, async (client) => ({
    removed: (await journalRemoval(db, client, 'unwatch', await run(client, db.statements.deleteCursorOfPair, { watcher, target }), 'unwatched', now)).length > 0,
  }));
}

/** Removes every cursor `watcher` holds, ending each watch as `reset`; returns the removed pairs. */
export async function resetWatcher(db: StoreDb, watcher: SessionKey, now: number): Promise<CursorPair[]> {
  assertStoreKey('watcher', watcher);
  return inTransaction(db, async (client) => journalRemoval(db, client, 'resetWatcher', await run(client, db.statements.deleteCursorsOfWatcher, { watcher }), 'reset', now));
}

/** Deletes a session's events and cursors (ending as `deleted`) under its head-row lock; the head stays, its watermark raised. */
export async function deleteSession(db: StoreDb, sessionKey: SessionKey, now: number): Promise<{ eventsDeleted: number; removedCursors: CursorPair[] }> {
  assertStoreKey('sessionKey', sessionKey);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    const [locked] = await run(client, st.lockHead, { sessionKey });
    const [gone] = await run(client, st.deleteSessionEvents, { sessionKey });
    const eventsDeleted = Number(gone?.[0] ?? 0);
    const highest = (gone?.[1] ?? null) as number | null;
    if (highest !== null && locked !== undefined) {
      await writeHeads(db, client, planHeadWrites([{ sessionKey, locked: headOfRow(locked), events: [{ type: 'deleted', highestDeleted: asSequence(highest) }] }]).writes);
    }
    const deleted = await run(client, st.deleteCursorsOfSession, { sessionKey });
    return { eventsDeleted, removedCursors: await journalRemoval(db, client, 'deleteSession', deleted, 'deleted', now) };
  });
}
