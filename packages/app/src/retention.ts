// Retention: the prune loop (bounded batches with a yield to the event loop between them) and
// its schedule (on start, at most hourly after appends, and on demand).
import type { CursorPair, PruneBatch, PruneRequest } from '@session-state/domain';

/** How long and how many events the signal log keeps. */
export interface RetentionPolicy {
  readonly maxAgeMs: number;
  readonly maxRows: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxAgeMs: 30 * 24 * 60 * 60 * 1000, maxRows: 50_000 };

/** Events deleted per store call: small enough that one batch never stalls the event loop. */
export const PRUNE_BATCH_SIZE = 1000;

/** Appends start a background prune at most this often (measured on the clock port). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** The totals of one prune run. */
export interface PruneTotals {
  readonly eventsDeleted: number;
  readonly cursorsExpired: number;
}

export interface RetentionDeps {
  readonly policy: RetentionPolicy;
  readonly now: () => number;
  /** Runs one store batch and applies its expired cursors to the queue (inside the lane). */
  readonly pruneBatch: (request: PruneRequest) => Promise<PruneBatch>;
  /** Called for every batch, after it is applied, with the cursors it expired. */
  readonly onBatch: (eventsDeleted: number, expired: readonly CursorPair[]) => void;
  /** Reports a failed background run (a demanded run rejects instead). */
  readonly onBackgroundError: (error: unknown) => void;
}

export interface Retention {
  /** Runs a prune now (after any running one) and resolves with its totals. */
  runNow(): Promise<PruneTotals>;
  /** Starts a background prune unless one is running. */
  startInBackground(): void;
  /** After appends: starts a background prune when the last one started an interval ago. */
  afterAppend(): void;
  /** Stops between batches and resolves when no prune is running. */
  stop(): Promise<void>;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createRetention(deps: RetentionDeps): Retention {
  let running: Promise<PruneTotals> | undefined;
  let lastStartedAt: number | undefined;
  let stopping = false;

  const loop = async (): Promise<PruneTotals> => {
    const now = deps.now();
    lastStartedAt = now;
    let eventsDeleted = 0;
    let cursorsExpired = 0;
    for (;;) {
      const batch = await deps.pruneBatch({
        now,
        maxAgeMs: deps.policy.maxAgeMs,
        maxRows: deps.policy.maxRows,
        batchSize: PRUNE_BATCH_SIZE,
      });
      eventsDeleted += batch.eventsDeleted;
      cursorsExpired += batch.expiredCursors.length;
      deps.onBatch(batch.eventsDeleted, batch.expiredCursors);
      if (batch.done || stopping) break;
      await yieldToEventLoop();
    }
    return { eventsDeleted, cursorsExpired };
  };

  const start = (): Promise<PruneTotals> => {
    const run = loop();
    running = run;
    const clear = (): void => {
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
    async runNow() {
      while (running !== undefined) await running.catch(() => undefined);
      return start();
    },
    startInBackground,
    afterAppend() {
      if (running !== undefined || stopping) return;
      if (lastStartedAt !== undefined && deps.now() - lastStartedAt < PRUNE_INTERVAL_MS) return;
      startInBackground();
    },
    async stop() {
      stopping = true;
      while (running !== undefined) await running.catch(() => undefined);
    },
  };
}
