// One page of pending cursors in pair order (`scanPending`): read-only, or the restart scan's page
// (`planRestartScan`). Each cursor's step depends on it alone, so pages give what one pass would.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { comparePairs, pageAfter, pairKey, planScanPage, type CursorPair, type Notice, type ScanPage, type ScanRequest } from '@session-state/domain';

import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

type Raise = ScanRequest & { readonly raise: { readonly now: number } };

/** The page's PENDING_FIELDS rows in pair order, and where the next page starts. */
async function pageRows(db: StoreDb, { after, limit, targets }: ScanRequest): Promise<{ readonly rows: readonly unknown[][]; readonly next?: CursorPair }> {
  if (targets !== undefined) {
    const read: unknown[][] = await runAlone(db, db.statements.pendingCursorsOn, { targets: [...new Set(targets)] });
    const paged = pageAfter(read.map((row) => ({ watcher: String(row[0]), target: String(row[1]), row })), after, limit);
    return { rows: paged.rows.map((pair) => pair.row), ...(paged.next !== undefined ? { next: paged.next } : {}) };
  }
  const rows: unknown[][] = await runAlone(db, db.statements.pendingCursorsAfter, { ...(after ?? BEFORE_FIRST), limit });
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return { rows, ...(last !== undefined ? { next: { watcher: String(last[0]), target: String(last[1]) } as CursorPair } : {}) };
}

/** One restart-scan page planned on its unlocked read; the cursors the plan writes are locked, re-read, re-planned and written in one transaction. */
async function raisePage(db: StoreDb, read: readonly unknown[][], request: Raise): Promise<readonly Notice[]> {
  const unlocked = planScanPage(request, decodePendingRows(db, 'scanPending', read, request.raise.now, request.owns));
  const toWrite = unlocked.cursorWrites;
  if (toWrite.length === 0) return unlocked.notices;
  const locked = await inTransaction(db, async (client) => {
    const rows = await run(client, db.statements.lockCursorPairs, { watchers: toWrite.map((row) => row.watcher), targets: toWrite.map((row) => row.target) });
    const plan = planScanPage(request, decodePendingRows(db, 'scanPending', rows, request.raise.now, request.owns));
    await writeCursorPlan(db, client, plan);
    return plan.notices;
  }, NO_COMMIT_CHECK);
  const rewritten = new Set(toWrite.map((row) => pairKey(row.watcher, row.target)));
  return [...unlocked.notices.filter((notice) => !rewritten.has(pairKey(notice.watcher, notice.target))), ...locked].sort(comparePairs);
}

/** One page of `scanPending`: the held notices read without a lock, or with `raise` the restart scan's page. */
export async function scanPending(db: StoreDb, request: ScanRequest): Promise<ScanPage> {
  if (request.targets !== undefined && request.targets.length === 0) return { notices: [] };
  const { rows, next } = await pageRows(db, request);
  const notices = request.raise === undefined
    ? planScanPage(request, decodePendingRows(db, 'scanPending', rows, 0, request.owns)).notices
    : await raisePage(db, rows, { ...request, raise: request.raise });
  return { notices, ...(next !== undefined ? { next } : {}) };
}
