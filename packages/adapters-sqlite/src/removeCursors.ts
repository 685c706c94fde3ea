// Removing cursors (reset, delete, expiry): the rows a `DELETE … RETURNING` gave back are planned
// by `planRemoval`, whose `watch_ended` entries are written in the same transaction.
import { decodeStoredCursors } from '@session-state/adapters-sql-common';
import { planRemoval, type CursorPair, type EndReason } from '@session-state/domain';

import { writeJournal } from './cursorJournal.js';
import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from './storeDb.js';

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
