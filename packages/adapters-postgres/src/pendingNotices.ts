// The owner's re-read after a signal: the notice each pending cursor on the targets holds
// (`planHeldNotices`), read without writing anything.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planHeldNotices, type Notice, type SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';

/** Pending cursors (all, or on `targets`) whose watcher passes `owns`, by watcher then target; one statement, no lock. */
export async function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<readonly Notice[]> {
  if (targets !== undefined && targets.length === 0) return [];
  const rows =
    targets === undefined
      ? await runAlone(db, db.statements.pendingCursors, {})
      : await runAlone(db, db.statements.pendingCursorsOn, { targets: [...new Set(targets)] });
  // No row is written, so the time rows carry is never used; only owned rows are decoded.
  const cursors = decodePendingRows(db, 'pendingNotices', rows, 0, owns);
  return planHeldNotices({ cursors, ...(owns !== undefined ? { owns } : {}), ...(targets !== undefined ? { targets } : {}) });
}
