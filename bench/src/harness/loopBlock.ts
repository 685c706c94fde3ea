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
