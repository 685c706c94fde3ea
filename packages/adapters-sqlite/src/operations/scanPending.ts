// One page of pending cursors in pair order (`scanPending`): read-only, or the restart scan's page,
// read, planned and written in one transaction. The app pages through them.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { pageAfter, planScanPage, type CursorPair, type ScanPage, type ScanRequest } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import { withoutAutoCheckpoint } from '../worker/storeWorker.js';
import type { WalSchedule } from '../worker/walBound.js';
import { finishOwedFanOuts } from './fanOut.js';
import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';
import { pendingRowsOn } from './reads.js';

/** Rows the scan writes per WAL page, about: neighbouring cursors and appended journal entries share pages. */
const ROWS_PER_WAL_PAGE = 5;

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Row = readonly unknown[];

/** The page's PENDING_FIELDS rows in pair order, and where the next page starts. */
function pageRows(db: StoreDb, { after, limit, targets }: ScanRequest): { readonly rows: readonly Row[]; readonly next?: CursorPair } {
  if (targets !== undefined) {
    const paged = pageAfter(pendingRowsOn(db, targets).map((row) => ({ watcher: String(row[0]), target: String(row[1]), row })), after, limit);
    return { rows: paged.rows.map((pair) => pair.row), ...(paged.next !== undefined ? { next: paged.next } : {}) };
  }
  const rows = db.statements.pendingCursorsAfter.all({ ...(after ?? BEFORE_FIRST), limit });
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return { rows, ...(last !== undefined ? { next: { watcher: String(last[0]), target: String(last[1]) } as CursorPair } : {}) };
}

/** The held notices of one page; one read transaction. */
export function pendingPage(db: StoreDb, request: ScanRequest): ScanPage {
  if (request.targets !== undefined && request.targets.length === 0) return { notices: [] };
  return db.client
    .transaction((): ScanPage => {
      const { rows, next } = pageRows(db, request);
      const plan = planScanPage(request, decodePendingRows(db, 'scanPending', rows, 0, request.owns));
      return { notices: plan.notices, ...(next !== undefined ? { next } : {}) };
    })
    .deferred();
}

/**
 * One restart-scan page (`request.raise` given). The first page finishes the fan-outs a crash left
 * owed, so the scan re-queues them; a page that waited for a checkpoint runs in a turn of its own.
 */
export async function raisePage(db: StoreDb, request: ScanRequest & { readonly raise: { readonly now: number } }, wal?: WalSchedule): Promise<ScanPage> {
  if (request.after === undefined) await finishOwedFanOuts(db);
  if ((await wal?.ready()) === true) await nextTurn();
  if (request.targets !== undefined && request.targets.length === 0) return { notices: [] };
  const page = withoutAutoCheckpoint(db.client, () =>
    db.client
      .transaction(() => {
        const { rows, next } = pageRows(db, request);
        const plan = planScanPage(request, withLogMaterial(db, decodePendingRows(db, 'scanPending', rows, request.raise.now, request.owns)));
        writeCursorPlan(db, plan);
        return { notices: plan.notices, written: plan.cursorWrites.length + plan.journal.length, next };
      })
      .immediate(),
  );
  wal?.written(Math.ceil(page.written / ROWS_PER_WAL_PAGE), page.next === undefined);
  return { notices: page.notices, ...(page.next !== undefined ? { next: page.next } : {}) };
}
