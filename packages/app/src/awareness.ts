// The facade `createSessionStateAwareness`: the wiring of its parts, each given what it uses.
import type { SessionStateAwareness, SessionStateAwarenessOptions } from './api.js';
import { createFailures } from './errors/failures.js';
import { readOptions } from './input/options.js';
import { createCleanupMethods } from './methods/cleanup.js';
import { createNoticeMethods } from './methods/notices.js';
import { createReadMethods } from './methods/reads.js';
import { createRecordMethods } from './methods/record.js';
import { createCounters } from './metrics.js';
import { createNoticeBoard } from './notices/board.js';
import { createAppendPipeline } from './pipeline/appendPipeline.js';
import { createCallOrder, createOperationLane } from './pipeline/lane.js';
import { createObserve, createOwnership } from './ports.js';
import { createPruning } from './retention.js';
import { runStartup } from './startup.js';
import { createCrossProcessSync } from './sync/crossProcess.js';

/**
 * Creates the facade over a store and runs start-up before resolving (see `options.startup`).
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
  const failures = createFailures(logger, clock, isClosed);
  const ownership = createOwnership(config.ownsSession, logger);
  const ownsForScan = ownership?.forScan;
  const board = createNoticeBoard({ wake: config.wake, logger, counters, owns: ownership?.forAppend, now: (operation) => failures.now(operation), noticeLink: config.noticeLink });
  const observe = createObserve(config.observer, logger);
  const lane = createOperationLane();
  const background = config.startup.prune === 'background';
  const appends = createAppendPipeline({ store, lane, board, counters, failures, logger, observe, isClosed, leaseMs: config.leaseMs, afterAppends: () => background && retention.afterAppend() });
  const order = createCallOrder(lane, appends.flushNow, failures);
  const retention = createPruning({ store, clock, policy: config.policy, order, board, counters, logger, observe });
  const parts = { store, clock, logger, counters, failures, board, observe, lane, order, appends, retention, ownsForScan, isClosed };
  // Only a process that shares its store (or asked for the resync timer) re-reads it.
  const { listens, resyncIntervalMs } = config;
  const sync = listens || resyncIntervalMs > 0 ? createCrossProcessSync({ ...parts, listens, resyncIntervalMs }) : undefined;

  await runStartup({ ...parts, plan: config.startup, sync });
  // The wakes start-up owes, in a turn after the caller has the facade.
  setImmediate((wakeOwed) => isClosed() || wakeOwed(), board.started());

  return {
    ...createRecordMethods(parts),
    ...createNoticeMethods(parts),
    ...createReadMethods(parts),
    ...createCleanupMethods(parts),
    metrics: () => counters.snapshot(),
    noticeQueueDepth: () => board.queue.size(),
    close() {
      closing ??= (async () => {
        appends.flushNow();
        await sync?.close();
        await retention.stop();
        await lane.idle();
        await failures.storeCall('close', () => store.close());
      })();
      return closing;
    },
  };
}
