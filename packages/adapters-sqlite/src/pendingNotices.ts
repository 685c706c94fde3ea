// The notice each pending cursor holds at its frozen watermark (the domain's `heldNotice`), read
// without writing or touching anything: how a gateway re-reads its cursors after a cross-process
// signal or on its resync timer.
import { fromWatermarks, heldNotice, type Notice, type SessionKey } from '@session-state/domain';

import { laggingCursors, laggingRowsOn, laggingWatermarks, type LaggingRow } from './laggingCursors';
import type { StoreDb } from './storeDb';

/**
 * The held notices of the lagging cursors whose watcher passes `owns` (all of them from the
 * covering partial index, or those on `targets` by the cursors_target index), by watcher then
 * target. One read transaction, so chunked lookups see one snapshot; no write lock is taken.
 */
export function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Notice[] {
  if (targets !== undefined && targets.length === 0) return [];
  return db.orm.transaction(
    (tx) => {
      const notices: Notice[] = [];
      const rows: Iterable<LaggingRow> = targets === undefined ? laggingCursors(tx).values() : laggingRowsOn(tx, targets);
      for (const row of rows) {
        const watcher = row[0] as SessionKey;
        if (owns !== undefined && !owns(watcher)) continue;
        const stored = laggingWatermarks(db, 'pendingNotices', row);
        if (stored === undefined) continue;
        const notice = heldNotice(watcher, row[1] as SessionKey, fromWatermarks(stored));
        if (notice !== undefined) notices.push(notice);
      }
      return notices;
    },
    { behavior: 'deferred' },
  );
}
