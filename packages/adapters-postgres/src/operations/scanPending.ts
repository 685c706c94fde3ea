// One page of pending cursors in pair order: read-only, or the restart scan's (planScan); each cursor's step is its own, so pages add up.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { comparePairs, pairKey, planScan, type CursorPair, type Notice, type ScanPage, type ScanRequest } from '@session-state/domain';

import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

/** One restart-scan page planned on its unlocked read; the cursors the plan writes are locked, re-read, re-planned and written in one transaction. */
async function raisePage(db: StoreDb, read: readonly unknown[][], request: ScanRequest & { readonly raise: { readonly now: number } }): Promise<readonly Notice[]> {
  const unlocked = planScan({ ...request, cursors: decodePendingRows(db, 'scanPending', read, request.raise.now, request.owns) });
  const toWrite = unlocked.cursorWrites;
  if (toWrite.length === 0) return unlocked.notices;
  const locked = await inTransaction(db, async (client) => {
    const rows = await run(client, db.statements.lockCursorPairs, { watchers: toWrite.map((row) => row.watcher), targets: toWrite.map((row) => row.target) });
    const plan = planScan({ ...request, cursors: decodePendingRows(db, 'scanPending', rows, request.raise.now, request.owns) });
    await writeCursorPlan(db, client, plan);
    return plan.notices;
  }, NO_COMMIT_CHECK);
  const rewritten = new Set(toWrite.map((row) => pairKey(row.watcher, row.target)));
  return [...unlocked.notices.filter((notice) => !rewritten.has(pairKey(notice.watcher, notice.target))), ...locked].sort(comparePairs);
}

/** One page of `scanPending`: the held notices read without a lock, or with `raise` the restart scan's page. */
export async function scanPending(db: StoreDb, request: ScanRequest): Promise<ScanPage> {
  const { after, limit, targets, raise } = request;
  const from = { ...(after ?? BEFORE_FIRST), limit };
  const rows: unknown[][] = targets === undefined ? await runAlone(db, db.statements.pendingCursorsAfter, from) : await runAlone(db, db.statements.pendingCursorsOn, { ...from, targets: [...new Set(targets)] });
  const notices = raise === undefined ? planScan({ ...request, cursors: decodePendingRows(db, 'scanPending', rows, 0, request.owns) }).notices : await raisePage(db, rows, { ...request, raise });
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return { notices, ...(last !== undefined ? { next: { watcher: String(last[0]), target: String(last[1]) } as CursorPair } : {}) };
}
