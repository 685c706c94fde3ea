// Cross-process sync, for several gateways on one store: it hears of other processes' appends (cursor signals, and a
// resync timer as the safety net), re-reads the notices its owned pending cursors hold, and withdraws a queued notice
// whose cursor another process removed. A re-read never raises notified (that is the restart scan's, on an empty queue):
// on a live queue a drain would acknowledge changes never read. After start-up it runs beside the lane (it only reads);
// a lane operation may remove a queue entry while it is in flight, so such a pair's target is re-read in the lane instead.
import { isCursorSignalSource, pairKey, type CursorSignalListener, type CursorSignalSubscription, type Notice, type SessionKey } from '@session-state/domain';

import { describeFailure } from '../errors/errors.js';
import type { QueuedPair } from '../notices/queue.js';
import type { FacadeParts } from '../parts.js';
import { scanPages } from '../startup.js';

export type CrossProcessSync = ReturnType<typeof createCrossProcessSync>;

type SyncParts = Pick<FacadeParts, 'store' | 'board' | 'order' | 'counters' | 'failures' | 'logger' | 'ownsForScan' | 'isClosed'>;
type SyncDeps = SyncParts & { readonly resyncIntervalMs: number };
type Due = { readonly full: boolean; readonly targets: readonly SessionKey[] };

export function createCrossProcessSync(deps: SyncDeps) {
  const { store, board, order, counters, failures, logger, ownsForScan, isClosed } = deps;
  const queue = board.queue;

  const signalledTargets = new Set<SessionKey>();
  let fullScanDue = false;
  let scanScheduled = false;
  let resyncTimer: NodeJS.Timeout | undefined;
  let subscription: CursorSignalSubscription | undefined;
  let besideLane = false;
  // The re-read running (at most one), and whether a signal came while it ran.
  let running: Promise<void> | undefined;
  let scanAfterRunning = false;

  const scanFailed = (error: unknown): void => logger.error({ operation: 'scanPending', error: describeFailure(error) }, 'cursor scan failed');

  /**
   * One read-only re-read of the signalled targets (or all owned cursors); a failed read keeps
   * what it was asked for, for the next signal or resync. Beside the lane, the targets of pairs
   * whose entry may have left the queue meanwhile are returned, to be re-read in the lane.
   */
  const reread = async ({ full, targets }: Due, beside: boolean): Promise<readonly SessionKey[]> => {
    const queued = full ? queue.allEntries() : targets.flatMap((target) => queue.entriesOn(target));
    const mark = queue.generation();
    let notices: readonly Notice[];
    try {
      notices = await scanPages(store, { ...(ownsForScan !== undefined ? { owns: ownsForScan } : {}), ...(full ? {} : { targets }) });
    } catch (error) {
      if (full) fullScanDue = true;
      else for (const target of targets) signalledTargets.add(target);
      logger.error({ operation: 'scanPending', scan: full ? 'full' : 'targets', targets: targets.length, error: describeFailure(error) }, 'cursor scan failed; retried on the next signal or resync');
      return [];
    }
    const untrusted = new Set<SessionKey>();
    for (const notice of notices) {
      if (beside && !queue.unchangedSince(notice.watcher, notice.target, mark)) untrusted.add(notice.target as SessionKey);
      else board.offer(notice, true);
    }
    await withdrawRemoved(queued, notices);
    return [...untrusted];
  };

  const takeDue = (): Due | undefined => {
    const full = fullScanDue;
    const targets = full ? [] : [...signalledTargets];
    fullScanDue = false;
    signalledTargets.clear();
    return full || targets.length > 0 ? { full, targets } : undefined;
  };

  const rereadInLane = (due: () => Due | undefined): Promise<void> =>
    order.enter(async () => {
      const taken = due();
      if (taken !== undefined) await reread(taken, false);
    });

  const rereadBeside = async (): Promise<void> => {
    const taken = takeDue();
    if (taken === undefined) return;
    const untrusted = await reread(taken, true);
    if (untrusted.length > 0 && !isClosed()) rereadInLane(() => ({ full: false, targets: untrusted })).catch(scanFailed);
  };

  /**
   * Withdraws queued notices whose cursor another process removed. An entry the re-read found no
   * pending cursor for goes only if its cursor is gone (a drain that committed but reported a
   * failure leaves it pending-less yet due); removal is by identity, so a newer entry stays.
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
        logger.error({ operation: 'listCursors', error: describeFailure(error) }, 'cursor read failed; queued notices are checked again on the next signal or resync');
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
   * One re-read for the signals that arrive together. After start-up it starts in a microtask
   * (before the event loop turns); during start-up it waits a turn, for the restart scan covers it.
   */
  const scheduleScan = (): void => {
    if (isClosed() || scanScheduled) return;
    scanScheduled = true;
    (besideLane ? queueMicrotask : setImmediate)(() => {
      scanScheduled = false;
      if (isClosed()) return;
      if (running !== undefined) {
        scanAfterRunning = true;
        return;
      }
      const current = (besideLane ? rereadBeside() : rereadInLane(takeDue)).catch(scanFailed).finally(() => {
        if (running !== current) return;
        running = undefined;
        if (!scanAfterRunning) return;
        scanAfterRunning = false;
        scheduleScan();
      });
      running = current;
    });
  };

  const scanAllOwned = (): void => {
    fullScanDue = true;
    scheduleScan();
  };

  const listener: CursorSignalListener = {
    targetsChanged(targets, watchers) {
      if (isClosed()) return;
      try {
        // A signal naming only other gateways' watchers is not ours to re-read.
        if (watchers !== undefined && ownsForScan !== undefined && !watchers.some((watcher) => ownsForScan(watcher))) return;
        for (const target of targets) signalledTargets.add(target);
      } catch (error) {
        fullScanDue = true;
        logger.warn({ operation: 'listen', error: describeFailure(error) }, 'cursor signal was malformed; scanning every owned cursor');
      }
      scheduleScan();
    },
    resync() {
      if (!isClosed()) scanAllOwned();
    },
    failed(error) {
      logger.warn({ operation: 'listen', error: describeFailure(error) }, 'cursor signal listener failed; the store retries it');
    },
  };

  return {
    /** Subscribes to the store's cursor signals (with `listen` and `ownsSession`); a failure rejects as a StoreOperationError of `listen`. */
    async listen(): Promise<void> {
      if (ownsForScan === undefined || !isCursorSignalSource(store)) return;
      subscription = await failures.storeCall('listen', () => store.listen(listener));
    },
    /** The restart scan reads every owned cursor: it covers every signal received before it. */
    coveredByFullScan: (): void => void takeDue(),
    /** Start-up is done: starts the resync timer (unless 0) and lets re-reads run beside the lane. */
    startResyncTimer(): void {
      besideLane = true;
      if (deps.resyncIntervalMs > 0) resyncTimer = setInterval(scanAllOwned, deps.resyncIntervalMs).unref();
    },
    /** Stops the timer, closes the subscription and waits for a running re-read. */
    async close(): Promise<void> {
      if (resyncTimer !== undefined) clearInterval(resyncTimer);
      const current = subscription;
      subscription = undefined;
      if (current !== undefined) {
        try {
          await current.close();
        } catch (error) {
          logger.warn({ operation: 'close', error: describeFailure(error) }, 'closing the cursor signal subscription failed');
        }
      }
      // The store closes after this: a re-read beside the lane must be done with it.
      await running;
    },
  };
}
