// Measures how long an action blocks the event loop: `monitorEventLoopDelay` at 1 ms resolution
// around it, read after one more timer turn so the last block is recorded too.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface BlockMeasure<T> {
  readonly result: T;
  /** Wall time of the action, ms. */
  readonly totalMs: number;
  /** The longest event-loop delay seen while it ran, ms. */
  readonly maxBlockMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureBlocking<T>(action: () => T | Promise<T>): Promise<BlockMeasure<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(5); // let the monitor's timer start before the action
  const t0 = process.hrtime.bigint();
  const result = await action();
  const totalMs = Number(process.hrtime.bigint() - t0) / 1e6;
  await sleep(5); // the timer that was due during the last block fires now and records it
  histogram.disable();
  return { result, totalMs, maxBlockMs: histogram.max / 1e6 };
}

export interface BurstMeasure<T> {
  readonly result: T;
  /** Wall time from the first call to the last settled result, ms. */
  readonly totalMs: number;
  /** The caller's own synchronous loop that issued the burst, ms (the caller's block, not the library's). */
  readonly issueMs: number;
  /** What ran at the end of the issuing turn after the caller's loop (its microtasks), ms. */
  readonly issuingTurnExtraMs: number;
  /** The longest event-loop delay seen after the issuing turn, ms. */
  readonly maxBlockAfterMs: number;
  /** The longest block the work added: max(issuingTurnExtraMs, maxBlockAfterMs), ms. */
  readonly maxBlockMs: number;
}

/**
 * Measures a burst issued in one synchronous loop (`issue` returns a promise of its results without
 * awaiting anything first): how long the caller's loop took, what else ran in that same turn (the
 * microtasks queued by the burst), and the longest event-loop block in the turns after it. The
 * caller's loop is its own block; the target applies to what the burst adds to it and after it.
 */
export async function measureBurst<T>(issue: () => Promise<T>): Promise<BurstMeasure<T>> {
  await sleep(5);
  const t0 = process.hrtime.bigint();
  const done = issue();
  const issueMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // The first check phase after the issuing turn: everything the burst queued as microtasks ran before it.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const issuingTurnMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const result = await done;
  const totalMs = Number(process.hrtime.bigint() - t0) / 1e6;
  await sleep(5); // the timer that was due during the last block fires now and records it
  histogram.disable();
  const issuingTurnExtraMs = Math.max(0, issuingTurnMs - issueMs);
  const maxBlockAfterMs = histogram.count > 0 ? histogram.max / 1e6 : 0;
  return { result, totalMs, issueMs, issuingTurnExtraMs, maxBlockAfterMs, maxBlockMs: Math.max(issuingTurnExtraMs, maxBlockAfterMs) };
}
