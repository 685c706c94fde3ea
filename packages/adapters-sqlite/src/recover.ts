// The restart scan: every lagging cursor (material > acked) is stepped by
// `evolveCursor(restartScan)` and yields one notice; running it twice changes nothing more.
import { asc, gt } from 'drizzle-orm';
import { evolveCursor, isSequence, fromWatermarks, noticeFor, toWatermarks, type Notice, type SessionKey } from '@session-state/domain';

import { cursors } from './schema';
import type { StoreDb } from './storeDb';

/**
 * Every cursor with material > acked, by watcher then target, as [watcher, target, acked,
 * notified, material]: all of them columns of the partial index cursors_lagging, so the scan
 * reads only that (small) index and never the table.
 */
export function laggingCursors(orm: Pick<StoreDb['orm'], 'select'>) {
  return orm
    .select({ watcher: cursors.watcher, target: cursors.target, acked: cursors.acked, notified: cursors.notified, material: cursors.material })
    .from(cursors)
    .where(gt(cursors.material, cursors.acked))
    .orderBy(asc(cursors.watcher), asc(cursors.target));
}

/** The restart scan over lagging cursors (those whose watcher passes `owns`), in one write transaction; one notice per pair. */
export function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Notice[] {
  const st = db.statements;
  return db.orm.transaction(
    (tx) => {
      const notices: Notice[] = [];
      for (const row of laggingCursors(tx).values()) {
        const watcher = row[0] as SessionKey;
        if (owns !== undefined && !owns(watcher)) continue;
        const target = row[1] as SessionKey;
        if (!isSequence(row[2]) || !isSequence(row[3]) || !isSequence(row[4])) {
          db.onCorruptRow({ operation: 'recover', table: 'cursors', reason: 'a watermark is not a non-negative integer' });
          continue;
        }
        const stored = { acked: row[2], notified: row[3], material: row[4] };
        const step = evolveCursor(watcher, fromWatermarks(stored), { type: 'restartScan' });
        if (step === undefined) continue;
        if (step.changed) {
          const w = toWatermarks(step.cursor);
          st.updateCursor.run(w.acked, w.notified, w.material, now, watcher, target);
        }
        const notice = noticeFor(watcher, target, step);
        if (notice !== undefined) notices.push(notice);
      }
      return notices;
    },
    { behavior: 'immediate' },
  );
}
