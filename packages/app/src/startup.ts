// Start-up: what creating the facade runs before it resolves, in this order, each step as the
// options ask: subscribe to cursor signals (cross-process sync with `ownsSession`), the restart
// scan (re-queue every pending notice of the owned cursors), a first prune in the background, and
// the resync timer.
import { performance } from 'node:perf_hooks';

import type { Notice, StateStore } from '@session-state/domain';

import type { StartupPlan } from './awarenessOptions.js';
import { ClockError } from './clockReading.js';
import type { CrossProcessSync } from './crossProcessSync.js';
import type { Failures } from './failures.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { OperationLane } from './operationLane.js';
import type { OwnsWatcher } from './ownership.js';
import type { Retention } from './retention.js';

export interface StartupDeps {
  readonly plan: StartupPlan;
  readonly store: StateStore;
  readonly lane: OperationLane;
  readonly board: NoticeBoard;
  readonly failures: Failures;
  readonly retention: Retention;
  /** Undefined without cross-process sync. */
  readonly sync: CrossProcessSync | undefined;
  /** Undefined: the restart scan reads every cursor. */
  readonly ownsForScan: OwnsWatcher | undefined;
}

/** Recovered notices offered between two looks at the time (a small fraction of a millisecond's work, wakes included). */
export const OFFERS_PER_CHECK = 100;

/** A turn offers recovered notices until it has run this long (ms), then lets the event loop run. */
export const OFFER_TURN_MS = 4;

/**
 * Offers the recovered notices in order, letting the event loop run whenever a turn has offered
 * for OFFER_TURN_MS: a restart scan may recover a million, and the wake port each new one calls
 * takes as long as the host makes it. The first offers wait for a turn of their own too: the
 * scan's last page ran in the turn the scan resolved in.
 */
async function offerInSlices(board: NoticeBoard, notices: readonly Notice[]): Promise<void> {
  let turnStarted = Number.NEGATIVE_INFINITY;
  for (let from = 0; from < notices.length; from += OFFERS_PER_CHECK) {
    if (performance.now() - turnStarted >= OFFER_TURN_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turnStarted = performance.now();
    }
    const to = Math.min(notices.length, from + OFFERS_PER_CHECK);
    for (let i = from; i < to; i += 1) board.offer(notices[i] as Notice);
  }
}

/**
 * Runs start-up. Rejects, having closed the signal subscription, when listening or the restart
 * scan fails (a StoreOperationError of `listen` or `restartScan`) or the scan's clock reading is bad
 * (a ClockError of `restartScan`).
 */
export async function runStartup({ plan, store, lane, board, failures, retention, sync, ownsForScan }: StartupDeps): Promise<void> {
  // Listening starts BEFORE the scan, so an append another process commits in between is signalled.
  await sync?.listen();

  if (plan.restartScan) {
    // The only place the restart scan runs: nothing is queued yet, so raising a pending cursor's
    // notified to its material watermark cannot make a drain acknowledge a change unread.
    let recovered: readonly Notice[];
    try {
      recovered = await lane.run(() => {
        sync?.coveredByFullScan();
        const now = failures.now('restartScan');
        return ownsForScan === undefined ? store.restartScan(now) : store.restartScan(now, ownsForScan);
      });
    } catch (error) {
      await sync?.close();
      throw error instanceof ClockError ? error : failures.store('restartScan', error);
    }
    await offerInSlices(board, recovered);
  }

  if (plan.prune === 'background') retention.startInBackground();
  sync?.startResyncTimer();
}
