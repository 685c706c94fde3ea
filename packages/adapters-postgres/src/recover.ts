// The restart scan: every pending cursor (material > acked) of the owned watchers, planned by
// `planRestartScan` (notified raised to material, one `recovered` notice per pending pair).
// Running it twice changes nothing more. Only at start: the owner's re-read after a signal is
// pendingNotices.ts, which writes nothing.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { comparePairs, planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal';
import type { StoreDb } from './storeDb';
import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from './transaction';

const pairKey = (pair: { readonly watcher: string; readonly target: string }): string => `${pair.watcher}\u0000${pair.target}`;

/**
 * Plans the scan on the pending cursors read without locks; a cursor the plan leaves as it is (a
 * pending notice whose notified is already at material) gives its notice from that read, since
 * only its owner's drain could change what the notice says. The few cursors the plan writes are
 * locked and read again, planned from what is locked, and written with their journal entries in
 * one transaction.
 */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]> {
  const st = db.statements;
  const read = await runAlone(db, st.pendingCursors, {});
  const scan = { ...(owns !== undefined ? { owns } : {}), now };
  const unlocked = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', read, now, owns), ...scan });
  if (unlocked.cursorWrites.length === 0) return unlocked.notices;
  const toWrite = unlocked.cursorWrites;
  const locked = await inTransaction(db, async (client) => {
    const rows = await run(client, st.lockCursorPairs, { watchers: toWrite.map((row) => row.watcher), targets: toWrite.map((row) => row.target) });
    const plan = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', rows, now, owns), ...scan });
    await writeCursorPlan(db, client, plan);
    return plan.notices;
  }, NO_COMMIT_CHECK);
  // The written pairs' notices are the locked plan's; the others stay as first read.
  const rewritten = new Set(toWrite.map(pairKey));
  return [...unlocked.notices.filter((notice) => !rewritten.has(pairKey(notice))), ...locked].sort(comparePairs);
}
