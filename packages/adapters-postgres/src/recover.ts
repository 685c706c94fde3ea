// The restart scan: every pending cursor (material > acked) of the owned watchers, planned by
// `planRestartScan` (notified raised to material, one `recovered` notice per pending pair).
// Running it twice changes nothing more. Only at start: the owner's re-read after a signal is
// pendingNotices.ts, which writes nothing.
//
// Paged: RESTART_SCAN_PAGE pending cursors at a time (in pair order, after the last pair of the
// page before), each page read, planned and written on its own, so planning a million cursors in
// node is never one block of the event loop (each page's queries are awaited between them). Each
// cursor's scan step depends on that cursor alone, so the pages give the rows, journal and notices
// (in pair order) one pass would, while whatever commits between pages is seen by the later ones.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { comparePairs, planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, NO_COMMIT_CHECK, run, runAlone } from './transaction.js';

/** Pending cursors per page: decoding and planning a page in node takes a millisecond or two. */
export const RESTART_SCAN_PAGE = 1000;

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

type Owns = ((watcher: SessionKey) => boolean) | undefined;

const pairKey = (pair: { readonly watcher: string; readonly target: string }): string => `${pair.watcher}\u0000${pair.target}`;

/**
 * One page: plans the scan on its pending cursors read without locks; a cursor the plan leaves as
 * it is (a pending notice whose notified is already at material) gives its notice from that read,
 * since only its owner's drain could change what the notice says. The few cursors the plan writes
 * are locked and read again, planned from what is locked, and written with their journal entries
 * in one transaction.
 */
async function recoverPage(db: StoreDb, read: unknown[][], now: number, owns: Owns): Promise<readonly Notice[]> {
  const scan = { ...(owns !== undefined ? { owns } : {}), now };
  const unlocked = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', read, now, owns), ...scan });
  if (unlocked.cursorWrites.length === 0) return unlocked.notices;
  const toWrite = unlocked.cursorWrites;
  const locked = await inTransaction(db, async (client) => {
    const rows = await run(client, db.statements.lockCursorPairs, { watchers: toWrite.map((row) => row.watcher), targets: toWrite.map((row) => row.target) });
    const plan = planRestartScan({ cursors: decodePendingRows(db, 'restartScan', rows, now, owns), ...scan });
    await writeCursorPlan(db, client, plan);
    return plan.notices;
  }, NO_COMMIT_CHECK);
  // The written pairs' notices are the locked plan's; the others stay as first read.
  const rewritten = new Set(toWrite.map(pairKey));
  return [...unlocked.notices.filter((notice) => !rewritten.has(pairKey(notice))), ...locked].sort(comparePairs);
}

/** The restart scan over pending cursors (those whose watcher passes `owns`), page by page; one notice per pair, in pair order. */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  let after: { watcher: string; target: string } | undefined = BEFORE_FIRST;
  while (after !== undefined) {
    const read: unknown[][] = await runAlone(db, db.statements.pendingCursorsAfter, { ...after, limit: RESTART_SCAN_PAGE });
    for (const notice of await recoverPage(db, read, now, owns)) notices.push(notice);
    const last = read.length === RESTART_SCAN_PAGE ? read[read.length - 1] : undefined;
    after = last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) };
  }
  return notices;
}
