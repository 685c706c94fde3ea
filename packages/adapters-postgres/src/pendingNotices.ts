// The owner's re-read after a signal: the notice each pending cursor on the targets holds
// (`planHeldNotices`), read without writing anything.
import { planHeldNotices, type Notice, type SessionKey } from '@session-state/domain';

import { decodeCursorRows } from './cursorRow';
import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

/** Pending cursors (all, or on `targets`) whose watcher passes `owns`, by watcher then target; one statement, no lock. */
export async function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<readonly Notice[]> {
  if (targets !== undefined && targets.length === 0) return [];
  const rows =
    targets === undefined
      ? await runAlone(db, db.statements.pendingCursors, [])
      : await runAlone(db, db.statements.pendingCursorsOn, [[...new Set(targets)]]);
  // Only the owned watchers' rows are decoded (and a corrupt one reported).
  const owned = owns === undefined ? rows : rows.filter((row) => owns(row[0] as SessionKey));
  return planHeldNotices({ cursors: decodeCursorRows(db, 'pendingNotices', owned), ...(owns !== undefined ? { owns } : {}), ...(targets !== undefined ? { targets } : {}) });
}
