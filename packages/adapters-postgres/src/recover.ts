// The restart scan: every lagging cursor (material > acked) of the owned watchers, stepped by
// `evolveCursor(restartScan)`; one notice per pair. Running it twice changes nothing more. Only
// at start: the owner's re-read after a signal is pendingNotices.ts, which writes nothing.
import {
  evolveCursor,
  fromWatermarks,
  noticeFor,
  toWatermarks,
  type CursorRow,
  type Notice,
  type SessionKey,
} from '@session-state/domain';

import { comparePairs } from './cursorPairs';
import { decodeCursorRows } from './cursorRow';
import { moveCursorRows } from './moveCursorRows';
import type { StoreDb } from './storeDb';
import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from './transaction';

/**
 * Reads the lagging cursors without locks; a cursor the scan leaves as it is (a pending notice
 * the owner has not drained) gives its notice from that read, since only its owner's drain could
 * change what the notice says. The few cursors the scan must write are re-read under their row
 * locks and stepped from what is locked, in one transaction.
 */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Promise<Notice[]> {
  const st = db.statements;
  const read = await runAlone(db, st.laggingCursors, []);
  const notices: Notice[] = [];
  const toWrite: CursorRow[] = [];
  for (const row of decodeCursorRows(db, 'restartScan', read)) {
    if (owns !== undefined && !owns(row.watcher)) continue;
    const step = evolveCursor(row.watcher, fromWatermarks(row), { type: 'restartScan' });
    if (step === undefined) continue;
    if (step.changed) {
      toWrite.push(row);
      continue;
    }
    const notice = noticeFor(row.watcher, row.target, step);
    if (notice !== undefined) notices.push(notice);
  }
  if (toWrite.length > 0) {
    const written = await inTransaction(db, async (client) => {
      const locked = decodeCursorRows(
        db,
        'restartScan',
        await run(client, st.lockCursorPairs, [toWrite.map((row) => row.watcher), toWrite.map((row) => row.target)]),
      );
      const found: Notice[] = [];
      const moved: CursorRow[] = [];
      for (const row of locked) {
        const step = evolveCursor(row.watcher, fromWatermarks(row), { type: 'restartScan' });
        if (step === undefined) continue;
        if (step.changed) moved.push({ ...row, ...toWatermarks(step.cursor) });
        const notice = noticeFor(row.watcher, row.target, step);
        if (notice !== undefined) found.push(notice);
      }
      // One statement for every moved cursor: a round trip per cursor made a scan of 5,000
      // lagging cursors take ~2 s instead of ~0.3 s (bench pg6).
      await moveCursorRows(db, client, moved, now);
      return found;
    }, NO_COMMIT_CHECK);
    notices.push(...written);
    notices.sort(comparePairs);
  }
  return notices;
}
