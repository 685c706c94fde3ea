// Removing cursors: unwatch, resetWatcher, deleteSession and expiry, each watch ended in the journal (`planRemoval`).
import { decodeStoredCursors, planHeadWrites } from '@session-state/adapters-sql-common';
import { asSequence, assertStoreKey, planRemoval, type CursorPair, type EndReason, type SessionKey } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { writeJournal } from './journal.js';
import { readHead, withLogMaterial, writeHeads } from './logMaterial.js';

/**
 * Journals the removal of `deleted` (CursorValues rows, already deleted by the caller's
 * transaction) and returns the removed pairs, ordered by watcher then target. A corrupt row is
 * reported and left out, as every cursor reader does: it is gone, but never used.
 */
export function journalRemoval(db: StoreDb, operation: string, deleted: readonly (readonly unknown[])[], reason: EndReason, now: number): CursorPair[] {
  const plan = planRemoval({ cursors: withLogMaterial(db, decodeStoredCursors(db, operation, deleted)), reason, now });
  writeJournal(db, plan.journal);
  return [...plan.removed];
}

/** Removes the pair's cursor, if it has one, in one write transaction; `removed` says whether it had one. */
export function unwatch(db: StoreDb, watcher: SessionKey, target: SessionKey, now: number): { removed: boolean } {
  assertStoreKey('watcher', watcher);
  assertStoreKey('target', target);
  const remove = db.client.transaction(() => journalRemoval(db, 'unwatch', db.statements.deleteCursorOfPair.all({ watcher, target }), 'unwatched', now));
  return { removed: remove.immediate().length > 0 };
}

/** Removes every cursor whose watcher is `watcher`, in one write transaction; returns the removed pairs. */
export function resetWatcher(db: StoreDb, watcher: SessionKey, now: number): CursorPair[] {
  assertStoreKey('watcher', watcher);
  return db.client.transaction(() => journalRemoval(db, 'resetWatcher', db.statements.deleteCursorsOfWatcher.all({ watcher }), 'reset', now)).immediate();
}

/** Removes the session's events and cursors in one write transaction; the head stays, its prune watermark raised. */
export function deleteSession(db: StoreDb, sessionKey: SessionKey, now: number): { eventsDeleted: number; removedCursors: CursorPair[] } {
  assertStoreKey('sessionKey', sessionKey);
  return db.client
    .transaction(() => {
      const found = db.statements.sessionEvents.get({ sessionKey });
      const eventsDeleted = Number(found?.[0] ?? 0);
      const highest = (found?.[1] ?? null) as number | null;
      if (eventsDeleted > 0) db.statements.deleteSessionEvents.run({ sessionKey });
      // A session with events has a head row; planHeadWrites only raises its watermark.
      if (highest !== null) {
        writeHeads(db, planHeadWrites([{ sessionKey, locked: readHead(db, sessionKey), events: [{ type: 'deleted', highestDeleted: asSequence(highest) }] }]).writes);
      }
      const deleted = db.statements.deleteCursorsOfSession.all({ sessionKey });
      return { eventsDeleted, removedCursors: journalRemoval(db, 'deleteSession', deleted, 'deleted', now) };
    })
    .immediate();
}
