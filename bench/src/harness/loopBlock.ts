// How long an action blocks the event loop: `monitorEventLoopDelay` at 1 ms resolution around it,
// read after one more timer turn so the last block is recorded too.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
export const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

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
  await new Promise<void>((resolve) => setImmediate(resolve));
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
