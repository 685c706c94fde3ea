// Retention as the facade runs it: each prune batch is one lane entry (a call waits at most one
// short batch), the notices of the cursors it expired leave the queue, deleted rows are counted,
// and a background run that fails is logged.
import type { Clock, Logger, StateStore } from '@session-state/domain';

import type { CallOrder } from './callOrder.js';
import { readClock } from './clockReading.js';
import type { Counters } from './metrics.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { Observe } from './observing.js';
import { createRetention, type Retention, type RetentionPolicy } from './retention.js';
import { describeFailure } from './storeOperationError.js';

export interface PruningDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly policy: RetentionPolicy;
  /** The store's prune batch size, checked (see RetentionDeps.batchRows). */
  readonly batchRows: number | undefined;
  readonly order: CallOrder;
  readonly board: NoticeBoard;
  readonly counters: Counters;
  readonly logger: Logger;
  readonly observe: Observe;
}

export function createPruning({ store, clock, policy, batchRows, order, board, counters, logger, observe }: PruningDeps): Retention {
  return createRetention({
    policy,
    ...(batchRows !== undefined ? { batchRows } : {}),
    now: () => readClock(clock, 'prune'),
    pruneBatch: (request) =>
      order.enter(async () => {
        const started = performance.now();
        const batch = await store.prune(request);
        const elapsedMs = performance.now() - started;
        board.dropPairs(batch.expiredCursors);
        return { batch, elapsedMs };
      }),
    onBatch: (eventsDeleted) => counters.add('rowsPruned', eventsDeleted),
    onRun: (totals, elapsedMs) => observe.pruneRun({ ...totals, durationSeconds: elapsedMs / 1000 }),
    onBackgroundError: (error) => {
      // A bad clock reading included: logged, and the schedule tries again after the next append.
      logger.error({ operation: 'prune', error: describeFailure(error) }, 'background prune failed');
    },
  });
}
