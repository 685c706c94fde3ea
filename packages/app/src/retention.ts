// Retention: the prune loop (bounded batches with a yield to the event loop between them) and
// its schedule (on start, at most hourly after appends, and on demand).
import type { CursorPair, PruneBatch, PruneRequest } from '@session-state/domain';

/** How long and how many events the signal log keeps, and how long an idle watch lasts. */
export interface RetentionPolicy {
  readonly maxAgeMs: number;
  readonly maxRows: number;
  /**
   * How long a cursor (a watch) may go untouched before prune expires it; `maxAgeMs` when
   * absent. Appends that move a pending cursor touch it, so any value at or above `maxAgeMs`
   * never expires a pending cursor before the events it points at; a smaller one can (a watch
   * whose target stays quiet expires while its notice is still pending).
   */
  readonly cursorMaxAgeMs?: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeMs: 30 * 24 * 60 * 60 * 1000, maxRows: 50_000 };

/** Events the first store call of a run may delete; later calls are sized by time (see nextBatchSize) unless the store fixes `batchRows`. */
export const PRUNE_BATCH_SIZE = 1000;

/** What one store call should take at most: a block the gateway's event loop does not notice. */
export const PRUNE_BATCH_TARGET_MS = 8;

/** Bounds of the time-sized batch. */
export const PRUNE_BATCH_MIN = 50;
export const PRUNE_BATCH_MAX = 8000;

/**
 * The next batch size after a store call of `size` took `elapsedMs`: scaled towards the target
 * time, at most halved or doubled per step (one slow outlier does not collapse the size), and
 * kept within [PRUNE_BATCH_MIN, PRUNE_BATCH_MAX].
 */
export function nextBatchSize(size: number, elapsedMs: number): number {
  const scaled = elapsedMs > 0 ? (size * PRUNE_BATCH_TARGET_MS) / elapsedMs : size * 2;
  const stepped = Math.min(size * 2, Math.max(size / 2, scaled));
  return Math.round(Math.min(PRUNE_BATCH_MAX, Math.max(PRUNE_BATCH_MIN, stepped)));
}

/** Appends start a background prune at most this often (measured on the clock port). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** The totals of one prune run. */
export interface PruneTotals {
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

/** One store batch and how long the store call itself took (lane waits excluded). */
export interface TimedPruneBatch {
  readonly batch: PruneBatch;
  readonly elapsedMs: number;
}

export interface RetentionDeps {
  readonly policy: RetentionPolicy;
  /**
   * Events per store call, every call the same (the store's `pruneBatchRows` hint: a store that
   * awaits a server does not block the event loop while a batch runs); absent, batches are sized
   * by time (see nextBatchSize).
   */
  readonly batchRows?: number;
  /**
   * The clock port's time, or the error of a bad reading (it never throws): a run that gets an
   * error fails without a store call, the schedule check after appends is skipped and reported
   * through `onBackgroundError`, and the schedule keeps the last good start time.
   */
  readonly now: () => number | Error;
  /** Runs one store batch and applies its expired cursors to the queue (inside the lane), timing the store call. */
  readonly pruneBatch: (request: PruneRequest) => Promise<TimedPruneBatch>;
  /** Called for every batch, after it is applied, with the cursors it expired. */
  readonly onBatch: (eventsDeleted: number, expired: readonly CursorPair[]) => void;
  /** Called when a run completes (not when it fails), with its totals and how long it ran (ms). */
  readonly onRun: (totals: PruneTotals, elapsedMs: number) => void;
  /** Reports a failed background run or a skipped schedule check (a demanded run rejects instead). */
  readonly onBackgroundError: (error: unknown) => void;
}

export interface Retention {
  /** Runs a prune now (after any running one) and resolves with its totals. */
  runNow(): Promise<PruneTotals>;
  /** Starts a background prune unless one is running. */
  startInBackground(): void;
  /**
   * After appends: starts a background prune when the last one started an interval ago. Never
   * throws: it runs after a committed append, whose result it must not change.
   */
  afterAppend(): void;
  /** Stops between batches and resolves when no prune is running. */
  stop(): Promise<void>;
}

/**
 * Lets a whole turn of the event loop pass: timers and I/O run, and so does housekeeping the
 * store queued for its next turn (the SQLite store's WAL checkpoint after a big batch). One
 * `setImmediate` alone would run the next batch in the same check phase as that housekeeping,
 * one block; the second is queued behind the timers of the next turn.
 */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

export function createRetention(deps: RetentionDeps): Retention {
  // The newest run; an older one still going stops after its current batch (the newer covers the rest).
  let running: Promise<PruneTotals> | undefined;
  const runs = new Set<Promise<PruneTotals>>();
  let lastStartedAt: number | undefined;
  let stopping = false;

  const loop = async (isCurrent: () => boolean): Promise<PruneTotals> => {
    const now = deps.now();
    // A bad reading prunes nothing and leaves the schedule as it was (no NaN start time).
    if (typeof now !== 'number') throw now;
    lastStartedAt = now;
    const started = performance.now();
    let eventsDeleted = 0;
    let cursorsExpired = 0;
    const { batchRows } = deps;
    let batchSize = batchRows ?? PRUNE_BATCH_SIZE;
    // Where the store's journal retention resumes: each batch examines a window of the journal
    // after the previous one's, so the run walks it once (see PruneRequest.journalAfter).
    let journalAfter: number | undefined;
    for (;;) {
      const { batch, elapsedMs } = await deps.pruneBatch({
        now,
        maxAgeMs: deps.policy.maxAgeMs,
        maxRows: deps.policy.maxRows,
        ...(deps.policy.cursorMaxAgeMs !== undefined ? { cursorMaxAgeMs: deps.policy.cursorMaxAgeMs } : {}),
        batchSize,
        ...(journalAfter !== undefined ? { journalAfter } : {}),
      });
      journalAfter = batch.journalAfter;
      if (batchRows === undefined) batchSize = nextBatchSize(batchSize, elapsedMs);
      eventsDeleted += batch.eventsDeleted;
      cursorsExpired += batch.expiredCursors.length;
      deps.onBatch(batch.eventsDeleted, batch.expiredCursors);
      if (batch.done || stopping || !isCurrent()) break;
      await yieldToEventLoop();
    }
    const totals = { eventsDeleted, cursorsExpired };
    deps.onRun(totals, performance.now() - started);
    return totals;
  };

  const start = (): Promise<PruneTotals> => {
    let run: Promise<PruneTotals> | undefined;
    run = loop(() => running === run);
    running = run;
    runs.add(run);
    const clear = (): void => {
      runs.delete(run as Promise<PruneTotals>);
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
    runNow() {
      // Started at once, so its first batch enters the lane in call order.
      return start();
    },
    startInBackground,
    afterAppend() {
      if (running !== undefined || stopping) return;
      if (lastStartedAt !== undefined) {
        const now = deps.now();
        if (typeof now !== 'number') {
          // Skipped, not retried in a loop: the next append checks the schedule again.
          deps.onBackgroundError(now);
          return;
        }
        const sinceLast = now - lastStartedAt;
        // A clock set back (sinceLast < 0) must not hold pruning off until it catches up again:
        // the row cap would go unenforced meanwhile. Pruning at an earlier time is always safe.
        if (sinceLast >= 0 && sinceLast < PRUNE_INTERVAL_MS) return;
      }
      startInBackground();
    },
    async stop() {
      stopping = true;
      while (runs.size > 0) await Promise.allSettled([...runs]);
    },
  };
}
