// Cross-process sync, for several processes on one store: it hears of other processes' writes (cursor signals, and a
// resync timer as the safety net), re-reads the notices its owned pending cursors hold, and withdraws a queued notice
// whose cursor another process removed or acknowledged. A re-read never raises notified (that is the restart scan's, on
// an empty queue): on a live queue a drain would acknowledge changes never read. Re-reads run in the lane, in call order.
import { isCursorSignalSource, pairKey, type CursorSignalListener, type CursorSignalSubscription, type Notice, type SessionKey } from '@session-state/domain';

import { describeFailure } from '../errors/errors.js';
import type { QueuedPair } from '../notices/queue.js';
import type { FacadeParts } from '../parts.js';
import { scanPages } from '../startup.js';

export type CrossProcessSync = ReturnType<typeof createCrossProcessSync>;

type SyncParts = Pick<FacadeParts, 'store' | 'board' | 'order' | 'counters' | 'failures' | 'logger' | 'ownsForScan' | 'isClosed'>;
type SyncDeps = SyncParts & { readonly listens: boolean; readonly resyncIntervalMs: number };
type Due = { readonly full: boolean; readonly targets: readonly SessionKey[] };

export function createCrossProcessSync(deps: SyncDeps) {
  const { store, board, order, counters, failures, logger, ownsForScan, isClosed } = deps;
  const queue = board.queue;

  const signalledTargets = new Set<SessionKey>();
  let fullScanDue = false;
  let resyncTimer: NodeJS.Timeout | undefined;
  let subscription: CursorSignalSubscription | undefined;
  // Whether a re-read is queued: signals that arrive before it runs join it.
  let rereadQueued = false;
  let started = false;

  /** One read-only re-read of the signalled targets (or all owned cursors); a failed read keeps what it was asked for, for the next signal or resync. */
  const reread = async ({ full, targets }: Due): Promise<void> => {
    const queuedPairs = full ? queue.allEntries() : targets.flatMap((target) => queue.entriesOn(target));
    let notices: readonly Notice[];
    try {
      notices = await scanPages(store, { ...(ownsForScan !== undefined ? { owns: ownsForScan } : {}), ...(full ? {} : { targets }) });
    } catch (error) {
      if (full) fullScanDue = true;
      else for (const target of targets) signalledTargets.add(target);
      logger.error({ operation: 'scanPending', scan: full ? 'full' : 'targets', targets: targets.length, error: describeFailure(error) }, 'cursor scan failed; retried on the next signal or resync');
      return;
    }
    for (const notice of notices) board.offer(notice, true);
    withdrawRemoved(queuedPairs, notices);
  };

  const takeDue = (): Due | undefined => {
    const full = fullScanDue;
    const targets = full ? [] : [...signalledTargets];
    fullScanDue = false;
    signalledTargets.clear();
    return full || targets.length > 0 ? { full, targets } : undefined;
  };

  /** Withdraws the queued notices the re-read found no pending cursor for (another process removed or acknowledged it), but those a failed drain still owes. */
  const withdrawRemoved = (queuedPairs: readonly QueuedPair[], pending: readonly Notice[]): void => {
    const pendingPairs = new Set(pending.map((notice) => pairKey(notice.watcher, notice.target)));
    for (const { watcher, entry } of queuedPairs) {
      if (pendingPairs.has(pairKey(watcher, entry.target)) || board.isUnsure(entry)) continue;
      queue.removeIfSame(watcher, entry);
      counters.add('noticesWithdrawn');
    }
  };

  /** One re-read in the lane for the signals that arrive before it runs; during start-up, queued behind the restart scan, which covers them. */
  const scheduleScan = (): void => {
    if (isClosed() || rereadQueued) return;
    rereadQueued = true;
    (started ? queueMicrotask : setImmediate)(() => {
      order
        .enter(async () => {
          rereadQueued = false;
          const due = takeDue();
          if (due !== undefined && !isClosed()) await reread(due);
        })
        .catch((error: unknown) => logger.error({ operation: 'scanPending', error: describeFailure(error) }, 'cursor scan failed'));
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
    /** Subscribes to the store's cursor signals (see `listens` in options.ts); a failure rejects as a StoreOperationError of `listen`. */
    async listen(): Promise<void> {
      if (!deps.listens || !isCursorSignalSource(store)) return;
      subscription = await failures.storeCall('listen', () => store.listen(listener));
    },
    /** The restart scan reads every owned cursor: it covers every signal received before it. */
    coveredByFullScan: (): void => void takeDue(),
    /** Start-up is done: starts the resync timer (unless 0). */
    startResyncTimer(): void {
      started = true;
      if (deps.resyncIntervalMs > 0) resyncTimer = setInterval(scanAllOwned, deps.resyncIntervalMs).unref();
    },
    /** Stops the timer and closes the subscription (a re-read in the lane is awaited with the lane). */
    async close(): Promise<void> {
      if (resyncTimer !== undefined) clearInterval(resyncTimer);
      const current = subscription;
      subscription = undefined;
      try {
        await current?.close();
      } catch (error) {
        logger.warn({ operation: 'close', error: describeFailure(error) }, 'closing the cursor signal subscription failed');
      }
    },
  };
}
