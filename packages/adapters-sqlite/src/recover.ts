// The restart scan: lock and read the pending cursors (material > acked), plan
// (`planRestartScan`: notified raised to material, one `recovered` notice per pending pair),
// write the raised rows and their `notice_recovered` entries. Running it twice changes nothing
// more. Only at start: a gateway's live re-reads (signals, the resync timer) use
// pendingNotices.ts, which never moves a watermark.
//
// Paged: each page of pending cursors (in pair order, after the last pair of the page before) is
// read, planned and written in its own write transaction, and the event loop runs between pages,
// so a million cursors never block it for long. Each cursor's scan step depends on that cursor
// alone, so pages in separate transactions give the same rows, journal and notices (in the same
// order) as one transaction would, while whatever commits between pages is seen by the later ones.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal';
import type { StoreDb } from './storeDb';

/** Pending cursors per page: a page of the restart scan (read, plan, write, commit) takes a few milliseconds. */
export const RESTART_SCAN_PAGE = 500;

/** Below every pair (session keys are never empty): where the first page starts. */
const BEFORE_FIRST = { watcher: '', target: '' };

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One page: its notices, and the last pair it read (undefined when it was the last page). */
function scanPage(db: StoreDb, after: { watcher: string; target: string }, now: number, owns?: (watcher: SessionKey) => boolean) {
  return db.client
    .transaction(() => {
      const rows = db.statements.pendingCursorsAfter.all({ ...after, limit: RESTART_SCAN_PAGE });
      const cursors = decodePendingRows(db, 'restartScan', rows, now, owns);
      const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now });
      writeCursorPlan(db, plan);
      const last = rows.length === RESTART_SCAN_PAGE ? rows[rows.length - 1] : undefined;
      return { notices: plan.notices, next: last === undefined ? undefined : { watcher: String(last[0]), target: String(last[1]) } };
    })
    .immediate();
}

/** The restart scan over pending cursors (those whose watcher passes `owns`), page by page; one notice per pair, in pair order. */
export async function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  let after: { watcher: string; target: string } | undefined = BEFORE_FIRST;
  while (after !== undefined) {
    const page = scanPage(db, after, now, owns);
    for (const notice of page.notices) notices.push(notice);
    after = page.next;
    if (after !== undefined) await nextTurn();
  }
  return notices;
}
