// Retention: the prune loop (bounded batches, a turn of the event loop between them), its schedule
// (on start, at most hourly after appends, and on demand), and its wiring into the facade: each
// batch is one lane entry, and the notices of the cursors it expired leave the queue.
import type { PruneBatch, PruneRequest } from '@session-state/domain';

import { describeFailure } from './errors/errors.js';
import { readClock } from './errors/failures.js';
import type { FacadeParts } from './parts.js';

/** How long and how many events the signal log keeps, and how long an idle watch lasts. */
export interface RetentionPolicy {
  readonly maxAgeMs: number;
  readonly maxRows: number;
  /**
   * How long a cursor may go untouched before prune expires it; `maxAgeMs` when absent. A value
   * below `maxAgeMs` can expire a watch whose target stays quiet while its notice is pending.
   */
  readonly cursorMaxAgeMs?: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeMs: 30 * 24 * 60 * 60 * 1000, maxRows: 50_000 };

/** Events the first store call of a run may delete: a run with little to do holds the lane briefly. */
export const PRUNE_FIRST_BATCH_SIZE = 1000;
/** Events each later store call of a run may delete. */
export const PRUNE_BATCH_SIZE = 10_000;
/** Appends start a background prune at most this often (on the clock port). */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface PruneTotals {
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

interface RetentionDeps {
  readonly policy: RetentionPolicy;
  /** The time, or the error of a bad reading: a run then fails without a store call. */
  readonly now: () => number | Error;
  readonly pruneBatch: (request: PruneRequest) => Promise<PruneBatch>;
  readonly onBatch: (eventsDeleted: number) => void;
  /** A completed run's totals and how long it ran (ms). */
  readonly onRun: (totals: PruneTotals, elapsedMs: number) => void;
  /** A failed background run or a skipped schedule check (a demanded run rejects instead). */
  readonly onBackgroundError: (error: unknown) => void;
}

export type Retention = ReturnType<typeof createRetention>;

export function createRetention(deps: RetentionDeps) {
  // The newest run; an older one stops after its current batch.
  let running: Promise<PruneTotals> | undefined;
  const runs = new Set<Promise<PruneTotals>>();
  let lastStartedAt: number | undefined;
  let stopping = false;

  const loop = async (isCurrent: () => boolean): Promise<PruneTotals> => {
    const now = deps.now();
    if (typeof now !== 'number') throw now;
    lastStartedAt = now;
    const started = performance.now();
    const totals = { eventsDeleted: 0, cursorsExpired: 0 };
    let batchSize = PRUNE_FIRST_BATCH_SIZE;
    // Each batch resumes the journal's retention where the previous one stopped.
    let journalAfter: number | undefined;
    for (;;) {
      const batch = await deps.pruneBatch({ now, ...deps.policy, batchSize, ...(journalAfter !== undefined ? { journalAfter } : {}) });
      journalAfter = batch.journalAfter;
      batchSize = PRUNE_BATCH_SIZE;
      totals.eventsDeleted += batch.eventsDeleted;
      totals.cursorsExpired += batch.expiredCursors.length;
      deps.onBatch(batch.eventsDeleted);
      if (batch.done || stopping || !isCurrent()) break;
      // A whole turn of the event loop, housekeeping the store queued for its next turn included.
      await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    }
    deps.onRun(totals, performance.now() - started);
    return totals;
  };

  const start = (): Promise<PruneTotals> => {
    const run: Promise<PruneTotals> = loop(() => running === run);
    running = run;
    runs.add(run);
    const clear = (): void => {
      runs.delete(run);
      if (running === run) running = undefined;
    };
    run.then(clear, clear);
    return run;
  };

  const startInBackground = (): void => {
    if (running !== undefined || stopping) return;
    start().catch(deps.onBackgroundError);
  };

  return {
    /** Runs a prune now (after any running one) and resolves with its totals. */
    runNow: start,
    /** Starts a background prune unless one is running. */
    startInBackground,
    /** After appends: a background prune when the last one started an interval ago; never throws. */
    afterAppend(): void {
      if (running !== undefined || stopping) return;
      if (lastStartedAt !== undefined) {
        const now = deps.now();
        if (typeof now !== 'number') return deps.onBackgroundError(now);
        const sinceLast = now - lastStartedAt;
        // A clock set back must not hold pruning off until it catches up.
        if (sinceLast >= 0 && sinceLast < PRUNE_INTERVAL_MS) return;
      }
      startInBackground();
    },
    /** Stops between batches and resolves when no prune is running. */
    async stop(): Promise<void> {
      stopping = true;
      while (runs.size > 0) await Promise.allSettled([...runs]);
    },
  };
}

/** Retention as the facade runs it. */
type PruningDeps = Pick<FacadeParts, 'store' | 'clock' | 'order' | 'board' | 'counters' | 'logger' | 'observe'> & { readonly policy: RetentionPolicy };

export function createPruning({ store, clock, policy, order, board, counters, logger, observe }: PruningDeps): Retention {
  return createRetention({
    policy,
    now: () => readClock(clock, 'prune'),
    pruneBatch: (request) =>
      order.enter(async () => {
        const batch = await store.prune(request);
        board.dropPairs(batch.expiredCursors);
        return batch;
      }),
    onBatch: (eventsDeleted) => counters.add('rowsPruned', eventsDeleted),
    onRun: (totals, elapsedMs) => observe.pruneRun({ ...totals, durationSeconds: elapsedMs / 1000 }),
    onBackgroundError: (error) => logger.error({ operation: 'prune', error: describeFailure(error) }, 'background prune failed'),
  });
}
