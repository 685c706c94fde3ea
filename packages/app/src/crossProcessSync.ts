// Cross-process sync, for several gateway processes on one store: it hears of other processes'
// appends (the store's cursor signals, and a resync timer as the safety net) and re-reads the
// notices its owned pending cursors hold, never rescanning them, and it withdraws a queued
// notice whose cursor another process removed.
//
// Why the re-read is never the restart scan: the restart scan raises a pending cursor's notified
// to material. On a live queue that would let a drain acknowledge changes the watcher never read
// (it read status before they were recorded); the held notice keeps the frozen watermark, so the
// drain reopens for them, exactly as in one process.
//
// Why re-reads run beside the operation lane, and the drain race: a re-read only reads, so once
// start-up is done it runs on its own pool connection while the lane carries on, and a signal is
// heard one round trip after it arrives instead of after this gateway's queued append batches
// and drains. It never moves a watermark, so it cannot reorder the store's writes; the only
// hazard is the queue. A drain (or a reset, a delete, an expiry, a spawn edge) may commit after
// the re-read's snapshot and update the queue before the re-read answers: the re-read then holds
// the notice the drain just consumed, and offering it would queue a consumed notice again. So a
// re-read beside the lane watches the queue's removals while it is in flight and drops its answer
// for every pair whose entry left the queue meanwhile; those targets are re-read once more in the
// lane, after the operation (a notice that arrived at the same moment is not lost, only later).
// An operation that commits after the snapshot but updates the queue after the re-read answered
// fixes the queue itself (the drain removes what it consumed, a removal what it removed). Until
// start-up is done every re-read runs in the lane: the restart scan raises notified there.
import type { CursorSignalListener, CursorSignalSubscription, Logger, Notice, SessionKey, StateStore } from '@session-state/domain';

import type { CallOrder } from './callOrder.js';
import type { Failures } from './failures.js';
import type { Counters } from './metrics.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { QueuedPair } from './noticeQueue.js';
import type { OwnsWatcher } from './ownership.js';
import { pairKey, type RemovalWatch } from './removalWatch.js';
import { describeFailure } from './storeOperationError.js';

export interface CrossProcessSync {
  /**
   * Subscribes to the store's cursor signals, when it has `listen` and `ownsSession` was given;
   * a failure rejects as a logged StoreOperationError of `listen`.
   */
  listen(): Promise<void>;
  /** The restart scan reads every owned cursor: it covers every signal received before it. */
  coveredByFullScan(): void;
  /**
   * Start-up is done (the restart scan ran): starts the resync timer, unless its interval is 0,
   * and lets re-reads run beside the operation lane from now on.
   */
  startResyncTimer(): void;
  /** Stops the timer, waits for a running re-read, and closes the subscription; a re-read scheduled before close finds the facade closed and does not start. */
  close(): Promise<void>;
}

export interface CrossProcessSyncDeps {
  readonly store: StateStore;
  readonly board: NoticeBoard;
  readonly order: CallOrder;
  readonly counters: Counters;
  readonly failures: Failures;
  readonly logger: Logger;
  /** Undefined without `ownsSession`: re-reads cover every watcher, and nothing listens. */
  readonly ownsForScan: OwnsWatcher | undefined;
  readonly resyncIntervalMs: number;
  readonly isClosed: () => boolean;
}

export function createCrossProcessSync(deps: CrossProcessSyncDeps): CrossProcessSync {
  const { store, board, order, counters, failures, logger, ownsForScan, isClosed } = deps;
  const queue = board.queue;

  // Targets signalled since the last re-read, and whether a full re-read of owned cursors is due.
  const signalledTargets = new Set<SessionKey>();
  let fullScanDue = false;
  let scanScheduled = false;
  let resyncTimer: NodeJS.Timeout | undefined;
  let subscription: CursorSignalSubscription | undefined;
  // Until start-up is done every re-read runs in the lane (the restart scan raises notified there).
  let besideLane = false;
  // The re-read running beside the lane (at most one at a time), and whether a signal came
  // while it ran (a failed re-read keeps its targets but schedules nothing itself: no retry loop).
  let running: Promise<void> | undefined;
  let scanAfterRunning = false;

  // --- the re-read ---

  /**
   * One re-read: the notices the owned pending cursors hold (`store.pendingNotices`) on the
   * signalled targets, or on all of them when a full scan is due; read-only, so it moves no
   * watermark. A failed read keeps what it was asked for, for the next signal or resync tick
   * (never a retry loop).
   *
   * With `check` (a re-read beside the lane), a pair whose queue entry left the queue while the
   * read was in flight is not trusted: the read may predate the drain, reset, delete, expiry or
   * spawn edge that removed it, and offering its old notice would queue a consumed or withdrawn
   * one again. Such a pair's target is returned, to be re-read in the lane, after that operation.
   */
  const reread = async (full: boolean, targets: readonly SessionKey[], check: RemovalWatch | undefined): Promise<readonly SessionKey[]> => {
    // Taken before the read: an entry queued after it is never judged by it.
    const queued = full ? queue.allEntries() : targets.flatMap((target) => queue.entriesOn(target));
    let notices: readonly Notice[];
    try {
      notices = await store.pendingNotices(ownsForScan, full ? undefined : targets);
    } catch (error) {
      if (full) fullScanDue = true;
      else for (const target of targets) signalledTargets.add(target);
      logger.error({
        operation: 'pendingNotices',
        scan: full ? 'full' : 'targets',
        targets: targets.length,
        error: describeFailure(error),
      }, 'cursor scan failed; retried on the next signal or resync');
      return [];
    }
    const untrusted = new Set<SessionKey>();
    for (const notice of notices) {
      if (check?.touched(notice.watcher, notice.target)) untrusted.add(notice.target as SessionKey);
      else board.offer(notice, true);
    }
    await withdrawRemoved(queued, notices);
    return [...untrusted];
  };

  /** Takes what is due: every owned cursor, or the signalled targets (none: nothing to do). */
  const takeDue = (): { readonly full: boolean; readonly targets: readonly SessionKey[] } | undefined => {
    const full = fullScanDue;
    const targets = full ? [] : [...signalledTargets];
    fullScanDue = false;
    signalledTargets.clear();
    return full || targets.length > 0 ? { full, targets } : undefined;
  };

  /** A re-read in the lane, ordered with drains and appends: nothing it reads can be overtaken. */
  const rereadInLane = (due: () => { readonly full: boolean; readonly targets: readonly SessionKey[] } | undefined): Promise<void> =>
    order.enter(async () => {
      const taken = due();
      if (taken !== undefined) await reread(taken.full, taken.targets, undefined);
    });

  /**
   * A re-read beside the lane, on its own pool connection: a signal is heard without waiting
   * behind this gateway's append batches and drains. Read-only, and its answer is checked
   * against the queue's removals (see `reread`); the pairs it cannot trust go to the lane.
   */
  const rereadBeside = async (): Promise<void> => {
    const taken = takeDue();
    if (taken === undefined) return;
    const watch = board.watchRemovals();
    let untrusted: readonly SessionKey[];
    try {
      untrusted = await reread(taken.full, taken.targets, watch);
    } finally {
      watch.stop();
    }
    if (untrusted.length > 0 && !isClosed()) {
      rereadInLane(() => ({ full: false, targets: untrusted })).catch((error: unknown) => {
        logger.error({ operation: 'pendingNotices', error: describeFailure(error) }, 'cursor scan failed');
      });
    }
  };

  /**
   * Withdraws queued notices whose cursor another process removed (a reset, a session delete or
   * cursor expiry there; in this process those drop the entry themselves). A scanned entry the
   * re-read found no pending cursor for is a suspect; it goes only if its cursor is gone. One
   * whose cursor is still there stays: e.g. a drain that committed but reported a failure left
   * it, and the next drain must still hand its text over. Nothing is read when every entry is
   * pending (the usual case); a failed read keeps the entries for the next signal or resync.
   * Removal is by identity (`removeIfSame`), so an entry a drain replaced meanwhile stays.
   */
  const withdrawRemoved = async (queued: readonly QueuedPair[], pending: readonly Notice[]): Promise<void> => {
    const pendingPairs = new Set(pending.map((notice) => pairKey(notice.watcher, notice.target)));
    const suspectsByTarget = new Map<string, QueuedPair[]>();
    for (const pair of queued) {
      if (pendingPairs.has(pairKey(pair.watcher, pair.entry.target))) continue;
      const suspects = suspectsByTarget.get(pair.entry.target);
      if (suspects === undefined) suspectsByTarget.set(pair.entry.target, [pair]);
      else suspects.push(pair);
    }
    for (const [target, suspects] of suspectsByTarget) {
      let watchers: ReadonlySet<string>;
      try {
        watchers = new Set((await store.listCursors({ target: target as SessionKey })).map((row) => row.watcher));
      } catch (error) {
        logger.error({
          operation: 'listCursors',
          error: describeFailure(error),
        }, 'cursor read failed; queued notices are checked again on the next signal or resync');
        return;
      }
      for (const { watcher, entry } of suspects) {
        if (watchers.has(watcher)) continue;
        queue.removeIfSame(watcher, entry);
        counters.add('noticesWithdrawn');
      }
    }
  };

  /**
   * One re-read for the signals that arrive together, however many. Once start-up is done it
   * starts as soon as the socket read that delivered them is handled (a read delivers every
   * notification in it before its microtasks run), not a turn of the event loop later, behind
   * whatever else that turn runs; signals that arrive while a re-read runs are taken by one re-read
   * after it. During start-up it waits a turn: the restart scan, queued in the lane right after
   * listening began, covers the resync that listening asked for (`coveredByFullScan`).
   */
  const scheduleScan = (): void => {
    if (isClosed() || scanScheduled) return;
    scanScheduled = true;
    (besideLane ? queueMicrotask : setImmediate)(() => {
      scanScheduled = false;
      if (isClosed()) return;
      if (running !== undefined) {
        // The running re-read schedules this one when it ends.
        scanAfterRunning = true;
        return;
      }
      const scan = besideLane ? rereadBeside() : rereadInLane(takeDue);
      const current = scan
        .catch((error: unknown) => {
          logger.error({ operation: 'pendingNotices', error: describeFailure(error) }, 'cursor scan failed');
        })
        .finally(() => {
          if (running !== current) return;
          running = undefined;
          if (!scanAfterRunning) return;
          scanAfterRunning = false;
          scheduleScan();
        });
      running = current;
    });
  };

  // --- signals ---

  const listener: CursorSignalListener = {
    targetsChanged(targets, watchers) {
      if (isClosed()) return;
      try {
        // The signal names its watchers: a gateway owning none of them has nothing to re-read
        // (one re-read per notice, in the owner only).
        if (watchers !== undefined && ownsForScan !== undefined && !watchers.some((watcher) => ownsForScan(watcher))) return;
        for (const target of targets) signalledTargets.add(target);
      } catch (error) {
        // A malformed signal: scan everything rather than miss a target.
        fullScanDue = true;
        logger.warn({ operation: 'listen', error: describeFailure(error) }, 'cursor signal was malformed; scanning every owned cursor');
      }
      scheduleScan();
    },
    resync() {
      if (isClosed()) return;
      fullScanDue = true;
      scheduleScan();
    },
    failed(error) {
      logger.warn({ operation: 'listen', error: describeFailure(error) }, 'cursor signal listener failed; the store retries it');
    },
  };

  const closeSubscription = async (): Promise<void> => {
    const current = subscription;
    subscription = undefined;
    if (current === undefined) return;
    try {
      await current.close();
    } catch (error) {
      logger.warn({ operation: 'close', error: describeFailure(error) }, 'closing the cursor signal subscription failed');
    }
  };

  return {
    async listen() {
      if (ownsForScan === undefined || store.listen === undefined) return;
      try {
        subscription = await store.listen(listener);
      } catch (error) {
        throw failures.store('listen', error);
      }
    },
    coveredByFullScan() {
      signalledTargets.clear();
      fullScanDue = false;
    },
    startResyncTimer() {
      besideLane = true;
      if (deps.resyncIntervalMs <= 0) return;
      resyncTimer = setInterval(() => {
        fullScanDue = true;
        scheduleScan();
      }, deps.resyncIntervalMs);
      // A safety net, never a reason to keep the process alive.
      resyncTimer.unref();
    },
    async close() {
      if (resyncTimer !== undefined) clearInterval(resyncTimer);
      await closeSubscription();
      // The store closes after this: a re-read beside the lane must be done with it.
      await running;
    },
  };
}
