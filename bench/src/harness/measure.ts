// The measuring loops: per-operation hrtime samples, a warm-up, and sides run in alternating
// chunks so a shared machine's load hits the library and the baseline alike; and how long an
// action blocks the event loop (`monitorEventLoopDelay` at 1 ms resolution around it, read after
// one more timer turn so the last block is recorded too).
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { Progress } from './context.js';

/** The nearest-rank percentile `p` (0–100) of ascending `sorted` samples; NaN when there are none. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** One side of one workload, summarised: samples (ns) to ops/s over `wallNs` (so awaits between ops count; the samples' sum when absent), p50 and p99 in µs. */
export function summarise(samplesNs: readonly number[], wallNs: number = samplesNs.reduce((a, b) => a + b, 0), ops: number = samplesNs.length) {
  const sorted = Float64Array.from(samplesNs).sort();
  return { n: ops, opsPerSec: wallNs > 0 ? (ops * 1e9) / wallNs : Number.NaN, p50Us: percentile(sorted, 50) / 1e3, p99Us: percentile(sorted, 99) / 1e3, totalMs: wallNs / 1e6 };
}

export type SideStats = ReturnType<typeof summarise>;

/** A sync op, an async op, or an async op that resolves with its own sample in ns (`timed`). */
export type BenchSide = { readonly name: string; readonly opsPerCall?: number } & (
  | { readonly sync: (i: number) => unknown }
  | { readonly async: (i: number) => Promise<unknown> }
  | { readonly timed: (i: number) => Promise<number> }
);

interface PairedRun {
  readonly label: string;
  /** Measured ops per side (indexes warmup … warmup + n - 1; a side with `opsPerCall` gets every `opsPerCall`-th), warm-up ops, ops per side before switching. */
  readonly n: number;
  readonly warmup: number;
  readonly chunk: number;
  readonly sides: readonly BenchSide[];
}

const now = (): bigint => process.hrtime.bigint();

export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
export const msSince = (t0: bigint): number => Number(now() - t0) / 1e6;

async function runChunk(side: BenchSide, from: number, to: number, samples: number[]): Promise<number> {
  const start = now();
  const step = side.opsPerCall ?? 1;
  if ('timed' in side) {
    let timedNs = 0;
    for (let i = from; i < to; i += step) {
      const sample = await side.timed(i);
      samples.push(sample);
      timedNs += sample;
    }
    return timedNs;
  }
  for (let i = from; i < to; i += step) {
    const t0 = now();
    if ('sync' in side) side.sync(i);
    else await side.async(i);
    samples.push(Number(now() - t0));
  }
  return Number(now() - start);
}

/** Every side's warm-up, then the measured ops in alternating chunks (each side sees the same op indexes); the stats in side order. */
export async function runPaired<const S extends readonly BenchSide[]>(run: PairedRun & { readonly sides: S }, progress: Progress): Promise<{ -readonly [K in keyof S]: SideStats }> {
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
  return run.sides.map((_, s) => summarise(samples[s] ?? [], wall[s] ?? 0, run.n)) as { -readonly [K in keyof S]: SideStats };
}

export async function timeOnce(action: () => unknown): Promise<number> {
  const t0 = now();
  await action();
  return Number(now() - t0);
}

/** The action's result, its total time and `maxBlockMs`, the longest event-loop delay while it ran, ms. */
export async function measureBlocking<T>(action: () => T | Promise<T>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(5);
  const t0 = process.hrtime.bigint();
  const result = await action();
  const totalMs = msSince(t0);
  await sleep(5);
  histogram.disable();
  return { result, totalMs, maxBlockMs: histogram.max / 1e6 };
}

/**
 * A burst issued in one synchronous loop by `issue`: the caller's own issuing loop (`issueMs`, its
 * own block), what else ran in that turn (`issuingTurnExtraMs`), and the longest block after it
 * (`maxBlockAfterMs`); `maxBlockMs` is the larger of the last two.
 */
export async function measureBurst<T>(issue: () => Promise<T>) {
  await sleep(5);
  const t0 = process.hrtime.bigint();
  const done = issue();
  const issueMs = msSince(t0);
  await turn();
  const issuingTurnExtraMs = Math.max(0, msSince(t0) - issueMs);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const result = await done;
  const totalMs = msSince(t0);
  await sleep(5);
  histogram.disable();
  const maxBlockAfterMs = histogram.count > 0 ? histogram.max / 1e6 : 0;
  return { result, totalMs, issueMs, issuingTurnExtraMs, maxBlockAfterMs, maxBlockMs: Math.max(issuingTurnExtraMs, maxBlockAfterMs) };
}

/** A signal not heard by then fails the workload (a wake, a notification, an MCP answer). */
const SIGNAL_TIMEOUT_MS = 10_000;

/** Waits for what a callback reports, by key. `next(key)`: the value of the next `signal(key, value)`, rejected after SIGNAL_TIMEOUT_MS without one; `strays()`: signals that came with nobody waiting for their key. */
export function createSignalWaiter<T>(what: string) {
  const waiting = new Map<string, { resolve: (value: T) => void; timer: NodeJS.Timeout }>();
  let strays = 0;
  return {
    next: (key: string) =>
      new Promise<T>((resolve, reject) => {
        if (waiting.has(key)) throw new Error(`already waiting for a ${what} for ${key}`);
        const timer = setTimeout(() => {
          waiting.delete(key);
          reject(new Error(`no ${what} for ${key} within ${SIGNAL_TIMEOUT_MS} ms`));
        }, SIGNAL_TIMEOUT_MS);
        waiting.set(key, { resolve, timer });
      }),
    signal(key: string, value: T): void {
      const waiter = waiting.get(key);
      if (waiter === undefined) {
        strays += 1;
        return;
      }
      waiting.delete(key);
      clearTimeout(waiter.timer);
      waiter.resolve(value);
    },
    strays: () => strays,
  };
}
