// The facade `createSessionStateAwareness`: the wiring of its parts. Each part is one job:
//   awarenessOptions  the options, checked, with their defaults
//   failures          store, clock and closed errors, logged and mapped (the README's error rule)
//   ownership         `ownsSession` per call site, when several gateways share one store
//   noticeBoard       the notice queue, wakes, and the notice counters
//   observing         the optional observer port (timings for metrics), never throwing
//   appendPipeline    group commit of appends in bounded batches, one result per caller
//   callOrder         the operation lane every store call runs in, in call order
//   pruning           retention batches in the lane, on a schedule and on demand
//   crossProcessSync  signals, the resync timer, withdrawal of removed cursors' notices
//   startup           listen, the restart scan, a background prune, the resync timer
//   *Methods          the public methods (append, notice, read, cleanup)
import type { SessionStateAwareness, SessionStateAwarenessOptions } from './awarenessApi.js';
import { readOptions } from './awarenessOptions.js';
import { createAppendMethods } from './appendMethods.js';
import { createAppendPipeline } from './appendPipeline.js';
import { createCallOrder } from './callOrder.js';
import { createCleanupMethods } from './cleanupMethods.js';
import { createCrossProcessSync } from './crossProcessSync.js';
import type { FacadeParts } from './facadeParts.js';
import { createFailures } from './failures.js';
import { createCounters } from './metrics.js';
import { createNoticeBoard } from './noticeBoard.js';
import { createNoticeMethods } from './noticeMethods.js';
import { createObserve } from './observing.js';
import { createOperationLane } from './operationLane.js';
import { createOwnership } from './ownership.js';
import { createPruning } from './pruning.js';
import { createReadMethods } from './readMethods.js';
import { runStartup } from './startup.js';

/**
 * Creates the facade over a store and runs start-up before resolving: by default the restart
 * scan (re-queuing pending notices), then a first prune in the background; with `ownsSession` it
 * first subscribes to the store's cursor signals (when it has `listen`) and starts the resync
 * timer after the scan. `options.startup` turns the restart scan and the facade's own prunes off,
 * e.g. for a command that records one event and exits.
 *
 * @example
 * const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: 'state.db' }), wake });
 */
export async function createSessionStateAwareness(options: SessionStateAwarenessOptions): Promise<SessionStateAwareness> {
  const config = readOptions(options);
  const { store, clock, logger } = config;
  let closing: Promise<void> | undefined;
  const isClosed = (): boolean => closing !== undefined;

  const counters = createCounters();
  const failures = createFailures({ logger, clock, isClosed });
  const ownership = createOwnership(config.ownsSession, logger);
  const board = createNoticeBoard({ wake: config.wake, logger, counters });
  const observe = createObserve(config.observer, logger);
  const lane = createOperationLane();
  const appends = createAppendPipeline({
    store,
    lane,
    board,
    counters,
    failures,
    logger,
    observe,
    ownsForAppend: ownership?.forAppend,
    // Called after a batch commits, when `retention` below exists.
    afterAppends: config.startup.prune === 'background' ? () => retention.afterAppend() : () => undefined,
  });
  const order = createCallOrder(lane, appends.flushNow, failures);
  const retention = createPruning({ store, clock, policy: config.policy, batchRows: config.pruneBatchRows, order, board, counters, logger, observe });
  // Only a process that shares its store with others (or asked for the resync timer) re-reads it.
  const sync =
    config.ownsSession !== undefined || config.resyncIntervalMs > 0
      ? createCrossProcessSync({ store, board, order, counters, failures, logger, ownsForScan: ownership?.forScan, resyncIntervalMs: config.resyncIntervalMs, isClosed })
      : undefined;

  await runStartup({ plan: config.startup, store, lane, board, failures, retention, sync, ownsForScan: ownership?.forScan });

  const parts: FacadeParts = { store, clock, logger, counters, failures, board, order, appends, retention, isClosed, ownsWatcher: ownership?.forAppend };
  return {
    ...createAppendMethods(parts),
    ...createNoticeMethods(parts),
    ...createReadMethods(parts),
    ...createCleanupMethods(parts),

    metrics() {
      return counters.snapshot();
    },

    noticeQueueDepth() {
      return board.queue.size();
    },

    close() {
      if (closing !== undefined) return closing;
      closing = (async () => {
        appends.flushNow();
        await sync?.close();
        await retention.stop();
        await lane.idle();
        try {
          await store.close();
        } catch (error) {
          throw failures.store('close', error);
        }
      })();
      return closing;
    },
  };
}
