// The result of a prune workload (5 on SQLite, pg5 on PostgreSQL): rows/s and the total time of
// one prune per side, the longest event-loop block, and the target that no block of the
// library's exceeds PRUNE_BLOCK_LIMIT_MS.
import type { WorkloadResult } from '../harness/context.js';

/** Workload 5's target: no single block of the event loop longer than this. */
export const PRUNE_BLOCK_LIMIT_MS = 20;

/** One side's measured prune. */
export interface TimedPrune {
  readonly totalMs: number;
  readonly maxBlockMs: number;
  /** Events the prune deleted; must be the excess over the cap. */
  readonly deleted: number;
}

export interface PruneResultInput {
  readonly id: string;
  readonly title: string;
  /** Events beyond the cap: what each side must delete. */
  readonly excess: number;
  readonly library: TimedPrune & { readonly op: string };
  readonly raw: TimedPrune & { readonly op: string };
  readonly notes?: readonly string[];
}

/** Checks both sides deleted exactly the excess, and shapes the result rows and the target check. */
export function pruneResult(input: PruneResultInput): WorkloadResult {
  const { id, title, excess, library, raw } = input;
  for (const [side, timed] of [['library', library], ['raw', raw]] as const) {
    if (timed.deleted !== excess) throw new Error(`${side} prune deleted ${timed.deleted} events, expected ${excess}`);
  }
  const row = (timed: TimedPrune & { readonly op: string }) => ({
    op: timed.op,
    n: excess,
    opsPerSec: (excess * 1000) / timed.totalMs,
    p50Us: Number.NaN,
    p99Us: Number.NaN,
    totalMs: timed.totalMs,
    maxBlockMs: timed.maxBlockMs,
  });
  return {
    id,
    title,
    sides: [
      { side: 'library', ...row(library) },
      { side: 'raw', ...row(raw) },
    ],
    checks: [
      {
        target: `library: no event-loop block above ${PRUNE_BLOCK_LIMIT_MS} ms`,
        measured: `${library.maxBlockMs.toFixed(1)} ms max block (total ${library.totalMs.toFixed(0)} ms; raw ${raw.maxBlockMs.toFixed(1)} ms block)`,
        met: library.maxBlockMs <= PRUNE_BLOCK_LIMIT_MS,
      },
    ],
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  };
}
