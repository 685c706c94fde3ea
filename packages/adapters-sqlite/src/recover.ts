// The restart scan: every lagging cursor (material > acked) is stepped by
// `evolveCursor(restartScan)`, which raises notified to material, and yields one notice;
// running it twice changes nothing more. Only at start: a gateway's live re-reads (signals, the
// resync timer) use pendingNotices.ts, which never moves a watermark.
import { evolveCursor, fromWatermarks, noticeFor, toWatermarks, type Notice, type SessionKey } from '@session-state/domain';

import { laggingCursors, laggingWatermarks } from './laggingCursors';
import type { StoreDb } from './storeDb';

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
        const stored = laggingWatermarks(db, 'restartScan', row);
        if (stored === undefined) continue;
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
