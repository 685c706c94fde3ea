// The measuring loops: per-operation hrtime samples, a warm-up, and sides run in alternating
// chunks so background load on a shared machine hits the library and the baseline alike.
import { summarise, type SideStats } from './stats.js';
import type { Progress } from './progress.js';

/**
 * One side of a comparison: a synchronous op (raw better-sqlite3), an async one (the facade), or
 * an async op that times itself (`timed`: it resolves with its own sample in nanoseconds, for an
 * op that ends at an event rather than when its promise settles, or that has untimed clean-up;
 * its chunk's wall time is then the sum of its samples).
 */
export type BenchSide = { readonly name: string; readonly opsPerCall?: number } & (
  | { readonly sync: (i: number) => unknown }
  | { readonly async: (i: number) => Promise<unknown> }
  | { readonly timed: (i: number) => Promise<number> }
);

export interface PairedRun {
  /** Shown in the progress line. */
  readonly label: string;
  /**
   * Measured operations per side; op indexes run warmup … warmup + n - 1. A side whose call
   * does `opsPerCall` operations is called with every `opsPerCall`-th index (and one sample per call).
   */
  readonly n: number;
  /** Unmeasured operations per side first (indexes 0 … warmup - 1). */
  readonly warmup: number;
  /** Operations per side before switching to the next side. */
  readonly chunk: number;
  readonly sides: readonly BenchSide[];
}

const now = (): bigint => process.hrtime.bigint();

/** Lets timers, I/O and the progress line run between chunks. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function runChunk(side: BenchSide, from: number, to: number, samples: number[]): Promise<number> {
  const start = now();
  const step = side.opsPerCall ?? 1;
  if ('sync' in side) {
    const op = side.sync;
    for (let i = from; i < to; i += step) {
      const t0 = now();
      op(i);
      samples.push(Number(now() - t0));
    }
  } else if ('async' in side) {
    const op = side.async;
    for (let i = from; i < to; i += step) {
      const t0 = now();
      await op(i);
      samples.push(Number(now() - t0));
    }
  } else {
    const op = side.timed;
    let timedNs = 0;
    for (let i = from; i < to; i += step) {
      const sample = await op(i);
      samples.push(sample);
      timedNs += sample;
    }
    return timedNs;
  }
  return Number(now() - start);
}

/**
 * Runs every side's warm-up, then the measured ops in alternating chunks. Each side sees the
 * same op indexes in the same order, so both do the same work.
 */
export async function runPaired(run: PairedRun, progress: Progress): Promise<Record<string, SideStats>> {
  const total = run.n * run.sides.length;
  for (const side of run.sides) {
    progress.update(`${run.label}: warm-up ${side.name}`, 0, total);
    await runChunk(side, 0, run.warmup, []);
  }
  const samples = run.sides.map(() => [] as number[]);
  const wall = run.sides.map(() => 0);
  for (let from = run.warmup; from < run.warmup + run.n; from += run.chunk) {
    const to = Math.min(from + run.chunk, run.warmup + run.n);
    for (const [s, side] of run.sides.entries()) {
      wall[s] = (wall[s] ?? 0) + (await runChunk(side, from, to, samples[s] ?? []));
      await turn();
      progress.update(run.label, (from - run.warmup) * run.sides.length + (to - from) * (s + 1), total);
    }
  }
  const out: Record<string, SideStats> = {};
  for (const [s, side] of run.sides.entries()) out[side.name] = summarise(samples[s] ?? [], wall[s] ?? 0, run.n);
  return out;
}

/** Times one async action once, in nanoseconds. */
export async function timeOnce(action: () => unknown): Promise<number> {
  const t0 = now();
  await action();
  return Number(now() - t0);
}
