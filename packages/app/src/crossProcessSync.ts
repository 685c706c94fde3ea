// Cross-process sync, for several gateway processes on one store: it hears of other processes'
// appends (the store's cursor signals, and a resync timer as the safety net) and re-reads the
// notices its owned pending cursors hold, never rescanning them, and it withdraws a queued
// notice whose cursor another process removed.
//
// Why the re-read is never the restart scan: the restart scan raises a pending cursor's notified
// to material. On a live queue that would let a drain acknowledge changes the watcher never read
// (it read status before they were recorded); the held notice keeps the frozen watermark, so the
// drain reopens for them, exactly as in one process.
import type { CursorSignalListener, CursorSignalSubscription, Logger, Notice, SessionKey, StateStore } from '@session-state/domain';

import type { CallOrder } from './callOrder';
import type { Failures } from './failures';
import type { Counters } from './metrics';
import type { NoticeBoard } from './noticeBoard';
import type { QueuedPair } from './noticeQueue';
import type { OwnsWatcher } from './ownership';
import { describeFailure } from './storeOperationError';

export interface CrossProcessSync {
  /**
   * Subscribes to the store's cursor signals, when it has `listen` and `ownsSession` was given;
   * a failure rejects as a logged StoreOperationError of `listen`.
   */
  listen(): Promise<void>;
  /** The restart scan reads every owned cursor: it covers every signal received before it. */
  coveredByFullScan(): void;
  /** Starts the resync timer, unless its interval is 0. */
  startResyncTimer(): void;
  /** Stops the timer and a scheduled re-read, and closes the subscription. */
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

/** One string per (watcher, target): session keys never hold whitespace, so a space separates. */
const pairKey = (watcher: string, target: string): string => `${watcher} ${target}`;

export function createCrossProcessSync(deps: CrossProcessSyncDeps): CrossProcessSync {
  const { store, board, order, counters, failures, logger, ownsForScan, isClosed } = deps;
  const queue = board.queue;

  // Targets signalled since the last re-read, and whether a full re-read of owned cursors is due.
  const signalledTargets = new Set<SessionKey>();
  let fullScanDue = false;
  let scanScheduled: NodeJS.Immediate | undefined;
  let resyncTimer: NodeJS.Timeout | undefined;
  let subscription: CursorSignalSubscription | undefined;

  // --- the re-read ---

  /**
   * One re-read through the lane (so it is ordered with drains and appends): the notices the
   * owned pending cursors hold (`store.pendingNotices`) on the signalled targets, or on all of
   * them when a full scan is due; read-only, so it moves no watermark. A failed scan keeps what
   * it was asked for, for the next signal or resync tick (never a retry loop).
   */
  const scanSignalled = (): Promise<void> =>
    order.enter(async () => {
      const full = fullScanDue;
      const targets = full ? [] : [...signalledTargets];
      fullScanDue = false;
      signalledTargets.clear();
      if (!full && targets.length === 0) return;
      // Taken before the read: an entry queued after it is never judged by it.
      const queued = full ? queue.allEntries() : targets.flatMap((target) => queue.entriesOn(target));
      let notices: readonly Notice[];
      try {
        notices = await store.pendingNotices(ownsForScan, full ? undefined : targets);
      } catch (error) {
        if (full) fullScanDue = true;
        else for (const target of targets) signalledTargets.add(target);
        logger.error('cursor scan failed; retried on the next signal or resync', {
          operation: 'pendingNotices',
          scan: full ? 'full' : 'targets',
          targets: targets.length,
          error: describeFailure(error),
        });
        return;
      }
      for (const notice of notices) board.offer(notice, true);
      await withdrawRemoved(queued, notices);
    });

  /**
   * Withdraws queued notices whose cursor another process removed (a reset, a session delete or
   * cursor expiry there; in this process those drop the entry themselves). A scanned entry the
   * re-read found no pending cursor for is a suspect; it goes only if its cursor is gone. One
   * whose cursor is still there stays: e.g. a drain that committed but reported a failure left
   * it, and the next drain must still hand its text over. Nothing is read when every entry is
   * pending (the usual case); a failed read keeps the entries for the next signal or resync.
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
        logger.error('cursor read failed; queued notices are checked again on the next signal or resync', {
          operation: 'listCursors',
          error: describeFailure(error),
        });
        return;
      }
      for (const { watcher, entry } of suspects) {
        if (watchers.has(watcher)) continue;
        queue.removeIfSame(watcher, entry);
        counters.add('noticesWithdrawn');
      }
    }
  };

  /** At most one scan per turn of the event loop, however many signals arrive in it. */
  const scheduleScan = (): void => {
    if (isClosed() || scanScheduled !== undefined) return;
    scanScheduled = setImmediate(() => {
      scanScheduled = undefined;
      if (isClosed()) return;
      scanSignalled().catch((error: unknown) => {
        logger.error('cursor scan failed', { operation: 'pendingNotices', error: describeFailure(error) });
      });
    });
  };

  // --- signals ---

  const listener: CursorSignalListener = {
    targetsChanged(targets) {
      if (isClosed()) return;
      try {
        for (const target of targets) signalledTargets.add(target);
      } catch (error) {
        // A malformed signal: scan everything rather than miss a target.
        fullScanDue = true;
        logger.warn('cursor signal was malformed; scanning every owned cursor', { operation: 'listen', error: describeFailure(error) });
      }
      scheduleScan();
    },
    resync() {
      if (isClosed()) return;
      fullScanDue = true;
      scheduleScan();
    },
    failed(error) {
      logger.warn('cursor signal listener failed; the store retries it', { operation: 'listen', error: describeFailure(error) });
    },
  };

  const closeSubscription = async (): Promise<void> => {
    const current = subscription;
    subscription = undefined;
    if (current === undefined) return;
    try {
      await current.close();
    } catch (error) {
      logger.warn('closing the cursor signal subscription failed', { operation: 'close', error: describeFailure(error) });
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
      if (scanScheduled !== undefined) clearImmediate(scanScheduled);
      scanScheduled = undefined;
      await closeSubscription();
    },
  };
}
