// The result of a prune workload (5, 5m, pg5, pg5m): rows/s and total time of one prune per side,
// the longest event-loop block, and the block target; workload 8 shares the row and the check.
import { ratio, times, type Check, type SideResult, type WorkloadResult } from '../harness/context.js';
import { measureBlocking } from '../harness/measure.js';

/** No single block of the event loop longer than this (workloads 5, 6 and 8). */
export const BLOCK_LIMIT_MS = 20;
/** Workloads 5m and pg5m: the library's whole prune at most this many times raw's one transaction. */
const PRUNE_AT_SCALE_TOTAL_LIMIT = 3;

/** One side's prune; `deleted` must be the excess over the cap. */
export type TimedPrune = { readonly op: string; readonly totalMs: number; readonly maxBlockMs: number; readonly deleted: number };

export async function timePrune(op: string, prune: () => number | Promise<number>): Promise<TimedPrune> {
  const m = await measureBlocking(prune);
  return { op, totalMs: m.totalMs, maxBlockMs: m.maxBlockMs, deleted: m.result };
}

export function pruneResult(id: string, title: string, excess: number, library: TimedPrune, raw: TimedPrune): WorkloadResult {
  for (const [side, timed] of [['library', library], ['raw', raw]] as const) {
    if (timed.deleted !== excess) throw new Error(`${side} prune deleted ${timed.deleted} events, expected ${excess}`);
  }
  return { id, title, sides: [totalRow('library', library.op, excess, library), totalRow('raw', raw.op, excess, raw)], checks: [blockCheck(library, raw)] };
}

type Blocking = { readonly totalMs: number; readonly maxBlockMs: number };

/** A side whose `n` ops ran as one timed whole: ops/s over the total, no per-op latency. */
export const totalRow = (side: 'library' | 'raw', op: string, n: number, m: Blocking): SideResult => ({ side, op, n, opsPerSec: (n * 1000) / m.totalMs, p50Us: Number.NaN, p99Us: Number.NaN, totalMs: m.totalMs, maxBlockMs: m.maxBlockMs });

/** The check "no event-loop block above BLOCK_LIMIT_MS" (`from` names what blocked), with raw's block beside it. */
export const blockCheck = (library: Blocking, raw: Blocking, from = ''): Check => ({
  target: `library: no event-loop block above ${BLOCK_LIMIT_MS} ms${from}`,
  measured: `${library.maxBlockMs.toFixed(1)} ms max block (total ${library.totalMs.toFixed(0)} ms; raw ${raw.maxBlockMs.toFixed(1)} ms block)`,
  met: library.maxBlockMs <= BLOCK_LIMIT_MS,
});

/** The at-scale check: the library's total at most PRUNE_AT_SCALE_TOTAL_LIMIT × raw's. */
export function totalCheck(library: { readonly totalMs: number }, raw: { readonly totalMs: number }, what: string): Check {
  const r = ratio(library.totalMs, raw.totalMs);
  return { target: `library: total ≤ ${PRUNE_AT_SCALE_TOTAL_LIMIT}× raw's ${what}`, measured: `${times(r)} (${library.totalMs.toFixed(0)} ms against ${raw.totalMs.toFixed(0)} ms)`, met: r <= PRUNE_AT_SCALE_TOTAL_LIMIT };
}
