// Start-up, before the facade resolves: subscribe to cursor signals (when it listens), the
// restart scan (re-queue every owned pending notice), a first prune in the background, and the
// resync timer. Also the one restart-scan pacer: every scan pages through `scanPending` here.
import type { Notice, ScanRequest, StateStore } from '@session-state/domain';

import { ClockError } from './errors/errors.js';
import type { StartupPlan } from './input/options.js';
import type { FacadeParts } from './parts.js';
import { nextTurn } from './pipeline/lane.js';
import type { CrossProcessSync } from './sync/crossProcess.js';

type StartupDeps = Pick<FacadeParts, 'store' | 'lane' | 'board' | 'failures' | 'retention' | 'ownsForScan'> & {
  readonly plan: StartupPlan;
  readonly sync: CrossProcessSync | undefined;
};

/** Pending cursors per `scanPending` page. */
export const SCAN_PAGE_ROWS = 500;

/** Every page of `scanPending` from the first, the event loop turning between pages; the notices in pair order. */
export async function scanPages(store: StateStore, request: Omit<ScanRequest, 'after' | 'limit'>): Promise<readonly Notice[]> {
  let page = await store.scanPending({ ...request, limit: SCAN_PAGE_ROWS });
  const notices = [...page.notices];
  while (page.next !== undefined) {
    await nextTurn();
    page = await store.scanPending({ ...request, after: page.next, limit: SCAN_PAGE_ROWS });
    notices.push(...page.notices);
  }
  return notices;
}

/** Rejects, having closed the subscription, when listening, the restart scan or its clock reading fails. */
export async function runStartup({ plan, store, lane, board, failures, retention, sync, ownsForScan }: StartupDeps): Promise<void> {
  // Listening starts before the scan, so an append another process commits in between is signalled.
  await sync?.listen();

  if (plan.restartScan) {
    // Nothing is queued yet, so raising notified to material cannot let a drain acknowledge a change unread.
    let recovered: readonly Notice[];
    try {
      recovered = await lane.run(async () => {
        // A turn of its own: the scan's first page does not run in the caller's turn.
        await nextTurn();
        sync?.coveredByFullScan();
        const raise = { now: failures.now('restartScan') };
        return scanPages(store, ownsForScan === undefined ? { raise } : { raise, owns: ownsForScan });
      });
    } catch (error) {
      await sync?.close();
      throw error instanceof ClockError ? error : failures.store('restartScan', error);
    }
    // Offered a page at a time, each in a turn of its own (the scan's last page ran in the turn it resolved in).
    for (let at = 0; at < recovered.length; at += SCAN_PAGE_ROWS) {
      await nextTurn();
      for (const notice of recovered.slice(at, at + SCAN_PAGE_ROWS)) board.offer(notice);
    }
  }

  if (plan.prune === 'background') retention.startInBackground();
  sync?.startResyncTimer();
}
