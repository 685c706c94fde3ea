// The notice each pending cursor holds at its frozen watermark (`planHeldNotices`), read without
// writing or touching anything: how a gateway re-reads its cursors after a cross-process signal
// or on its resync timer.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planHeldNotices, type Notice, type SessionKey } from '@session-state/domain';

import { pendingRowsOn } from './pendingCursors.js';
import type { StoreDb } from './storeDb.js';

/**
 * The held notices of the pending cursors whose watcher passes `owns` (all of them from the
 * covering partial index, or those on `targets` by the cursors_target index), by watcher then
 * target. One read transaction, so chunked lookups see one snapshot; no write lock is taken.
 */
export function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): readonly Notice[] {
  if (targets !== undefined && targets.length === 0) return [];
  return db.client
    .transaction((): readonly Notice[] => {
      const read = targets === undefined ? db.statements.pendingCursors.all({}) : pendingRowsOn(db, targets);
      // No row is written, so the time rows carry is never used.
      const cursors = decodePendingRows(db, 'pendingNotices', read, 0, owns);
      return planHeldNotices({ cursors, ...(owns !== undefined ? { owns } : {}), ...(targets !== undefined ? { targets } : {}) });
    })
    .deferred();
}
