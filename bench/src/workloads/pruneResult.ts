// The result of a prune workload (5, 5m, pg5, pg5m): rows/s and total time of one prune per side,
// the longest event-loop block, and the block target.
import { ratio, times, type Check, type WorkloadResult } from '../harness/context.js';
import { measureBlocking } from '../harness/loopBlock.js';

/** No single block of the event loop longer than this (workloads 5, 6 and 8). */
export const BLOCK_LIMIT_MS = 20;
/** Workloads 5m and pg5m: the library's whole prune at most this many times raw's one transaction. */
export const PRUNE_AT_SCALE_TOTAL_LIMIT = 3;

/** One side's prune; `deleted` must be the excess over the cap. */
export type TimedPrune = { readonly op: string; readonly totalMs: number; readonly maxBlockMs: number; readonly deleted: number };

/** One prune under `measureBlocking`; `prune` returns the events it deleted. */
export async function timePrune(op: string, prune: () => number | Promise<number>): Promise<TimedPrune> {
  const m = await measureBlocking(prune);
  return { op, totalMs: m.totalMs, maxBlockMs: m.maxBlockMs, deleted: m.result };
}

export function pruneResult(id: string, title: string, excess: number, library: TimedPrune, raw: TimedPrune, notes: readonly string[] = []): WorkloadResult {
  for (const [side, timed] of [['library', library], ['raw', raw]] as const) {
    if (timed.deleted !== excess) throw new Error(`${side} prune deleted ${timed.deleted} events, expected ${excess}`);
  }
  const row = (t: TimedPrune) => ({ op: t.op, n: excess, opsPerSec: (excess * 1000) / t.totalMs, p50Us: Number.NaN, p99Us: Number.NaN, totalMs: t.totalMs, maxBlockMs: t.maxBlockMs });
  return {
    id,
    title,
    sides: [{ side: 'library', ...row(library) }, { side: 'raw', ...row(raw) }],
    checks: [
      {
        target: `library: no event-loop block above ${BLOCK_LIMIT_MS} ms`,
        measured: `${library.maxBlockMs.toFixed(1)} ms max block (total ${library.totalMs.toFixed(0)} ms; raw ${raw.maxBlockMs.toFixed(1)} ms block)`,
        met: library.maxBlockMs <= BLOCK_LIMIT_MS,
      },
    ],
    notes,
  };
}

/** The at-scale check: the library's total at most PRUNE_AT_SCALE_TOTAL_LIMIT × raw's. */
export function totalCheck(library: { readonly totalMs: number }, raw: { readonly totalMs: number }, what: string): Check {
  const r = ratio(library.totalMs, raw.totalMs);
  return { target: `library: total ≤ ${PRUNE_AT_SCALE_TOTAL_LIMIT}× raw's ${what}`, measured: `${times(r)} (${library.totalMs.toFixed(0)} ms against ${raw.totalMs.toFixed(0)} ms)`, met: r <= PRUNE_AT_SCALE_TOTAL_LIMIT };
}
