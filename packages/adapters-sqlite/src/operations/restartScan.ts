// The restart scan: each page of pending cursors is read, planned (`planRestartScan`) and written in its own
// transaction, the event loop turning between pages; each cursor's step depends on it alone.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { noticeText, planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { withoutAutoCheckpoint } from '../worker/storeWorker.js';
import type { WalSchedule } from '../worker/walBound.js';
import { finishOwedFanOuts } from './fanOut.js';
import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';

/** Pending cursors one page reads, plans and writes. */
export const RESTART_SCAN_PAGE_ROWS = 500;

/** Rows the scan writes per WAL page, about: neighbouring cursors and appended journal entries share pages. */
const ROWS_PER_WAL_PAGE = 5;

type Pair = { readonly watcher: string; readonly target: string };

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST: Pair = { watcher: '', target: '' };

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The restart scan over pending cursors whose watcher passes `owns`, page by page; one notice per
 * pair, in pair order. Fan-outs a crash left owed are finished first, so the scan re-queues them.
 */
export async function restartScan(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean, wal?: WalSchedule): Promise<readonly Notice[]> {
  await finishOwedFanOuts(db);
  const notices: Notice[] = [];
  const textOf = noticeText;
  let after: Pair | undefined = BEFORE_FIRST;
  while (after !== undefined) {
    await wal?.ready();
    // A turn of its own: not the caller's, nor the one in which a checkpoint ended.
    await nextTurn();
    const from: Pair = after;
    const page = withoutAutoCheckpoint(db.client, () =>
      db.client
        .transaction(() => {
          const rows = db.statements.pendingCursorsAfter.all({ ...from, limit: RESTART_SCAN_PAGE_ROWS });
          const cursors = withLogMaterial(db, decodePendingRows(db, 'restartScan', rows, now, owns));
          const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now, textOf });
          writeCursorPlan(db, plan);
          const last = rows.length === RESTART_SCAN_PAGE_ROWS ? rows[rows.length - 1] : undefined;
          const next = last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) };
          return { notices: plan.notices, written: plan.cursorWrites.length + plan.journal.length, next };
        })
        .immediate(),
    );
    for (const notice of page.notices) notices.push(notice);
    after = page.next;
    wal?.written(Math.ceil(page.written / ROWS_PER_WAL_PAGE), after === undefined);
  }
  return notices;
}
