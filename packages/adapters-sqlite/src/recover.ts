// The restart scan: every lagging cursor (material > acked) is stepped by
// `evolveCursor(restartScan)` and yields one notice; running it twice changes nothing more.
import { asc, gt } from 'drizzle-orm';
import { evolveCursor, fromWatermarks, noticeFor, toWatermarks, type Notice, type SessionKey } from '@session-state/domain';

import { decodeCursorValues } from './cursorRow';
import { cursors } from './schema';
import { cursorColumns } from './statements';
import type { StoreDb } from './storeDb';

/** Every cursor with material > acked, by watcher then target; it scans the partial index cursors_lagging. */
export function laggingCursors(orm: Pick<StoreDb['orm'], 'select'>) {
  return orm
    .select(cursorColumns)
    .from(cursors)
    .where(gt(cursors.material, cursors.acked))
    .orderBy(asc(cursors.watcher), asc(cursors.target));
}

/** The restart scan over lagging cursors (those whose watcher passes `owns`), in one write transaction; one notice per pair. */
export function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Notice[] {
  const st = db.statements;
  return db.orm.transaction(
    (tx) => {
      const lagging = laggingCursors(tx).values().map(decodeCursorValues);
      const notices: Notice[] = [];
      for (const row of lagging) {
        if (owns !== undefined && !owns(row.watcher)) continue;
        const step = evolveCursor(row.watcher, fromWatermarks(row), { type: 'restartScan' });
        if (step === undefined) continue;
        if (step.changed) {
          const w = toWatermarks(step.cursor);
          st.upsertCursor.run(row.watcher, row.target, w.acked, w.notified, w.material, now);
        }
        const notice = noticeFor(row.watcher, row.target, step);
        if (notice !== undefined) notices.push(notice);
      }
      return notices;
    },
    { behavior: 'immediate' },
  );
}
