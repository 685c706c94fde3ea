// The restart scan (`planRestartScan`), in pages of pending cursors in pair order: each cursor's
// step depends on it alone, so pages give what one pass would. And the owner's re-read after a
// signal (`planHeldNotices`), which writes nothing.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { comparePairs, planHeldNotices, planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';

/** Pending cursors per restart-scan page. */
export const RESTART_SCAN_PAGE = 1000;

type Owns = ((watcher: SessionKey) => boolean) | undefined;

const pairKey = (pair: { readonly watcher: string; readonly target: string }): string => `${pair.watcher}\u0000${pair.target}`;

/** One page planned on its unlocked read; the cursors the plan writes are locked, re-read, re-planned and written in one transaction. */
async function scanPage(db: StoreDb, read: unknown[][], now: number, owns: Owns): Promise<readonly Notice[]> {
  const scan = { ...(owns !== undefined ? { owns } : {}), now };
  const unlocked = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', read, now, owns), ...scan });
  const toWrite = unlocked.cursorWrites;
  if (toWrite.length === 0) return unlocked.notices;
  const locked = await inTransaction(db, async (client) => {
    const rows = await run(client, db.statements.lockCursorPairs, { watchers: toWrite.map((row) => row.watcher), targets: toWrite.map((row) => row.target) });
    const plan = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', rows, now, owns), ...scan });
    await writeCursorPlan(db, client, plan);
    return plan.notices;
  }, NO_COMMIT_CHECK);
  const rewritten = new Set(toWrite.map(pairKey));
  return [...unlocked.notices.filter((notice) => !rewritten.has(pairKey(notice))), ...locked].sort(comparePairs);
}

/** The restart scan over the pending cursors whose watcher passes `owns`; one notice per pair, in pair order. */
export async function restartScan(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  // Session keys are never empty, so the first page starts below every pair.
  let after: { watcher: string; target: string } | undefined = { watcher: '', target: '' };
  while (after !== undefined) {
    const read: unknown[][] = await runAlone(db, db.statements.pendingCursorsAfter, { ...after, limit: RESTART_SCAN_PAGE });
    for (const notice of await scanPage(db, read, now, owns)) notices.push(notice);
    const last = read.length === RESTART_SCAN_PAGE ? read[read.length - 1] : undefined;
    after = last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) };
  }
  return notices;
}

/** The notice each pending cursor (all, or on `targets`) whose watcher passes `owns` holds, by watcher then target; no lock. */
export async function pendingNotices(db: StoreDb, owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<readonly Notice[]> {
  if (targets !== undefined && targets.length === 0) return [];
  const st = db.statements;
  const rows = targets === undefined ? await runAlone(db, st.pendingCursors, {}) : await runAlone(db, st.pendingCursorsOn, { targets: [...new Set(targets)] });
  // Nothing is written, so the time the rows carry is never used.
  const cursors = decodePendingRows(db, 'pendingNotices', rows, 0, owns);
  return planHeldNotices({ cursors, ...(owns !== undefined ? { owns } : {}), ...(targets !== undefined ? { targets } : {}) });
}
