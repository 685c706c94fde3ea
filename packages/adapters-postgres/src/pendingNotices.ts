// The owner's re-read after a signal: the notice each pending cursor on the targets holds, read
// without writing anything (see the domain's `heldNotice`).
import { fromWatermarks, heldNotice, type Notice, type SessionKey } from '@session-state/domain';

import { decodeCursorRows } from './cursorRow';
import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

/** Pending cursors (all, or on `targets`) whose watcher passes `owns`, by watcher then target; one statement, no lock. */
export async function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<Notice[]> {
  if (targets !== undefined && targets.length === 0) return [];
  const rows =
    targets === undefined
      ? await runAlone(db, db.statements.laggingCursors, [])
      : await runAlone(db, db.statements.laggingCursorsOn, [[...new Set(targets)]]);
  const notices: Notice[] = [];
  for (const row of decodeCursorRows(db, 'pendingNotices', rows)) {
    if (owns !== undefined && !owns(row.watcher)) continue;
    const notice = heldNotice(row.watcher, row.target, fromWatermarks(row));
    if (notice !== undefined) notices.push(notice);
  }
  return notices;
}
