// Workload 9: fan-out at scale. Every watcher watches every one of a few targets, so each record
// moves `watchers` cursors; after each target's first record every cursor is pending, so this is
// the steady state of a busy watched target (a repeat notice per watcher per record).
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import type { WatchPair } from './appendSetup.js';
import { targetKey } from './keys.js';
import { appendComparison } from './w1SingleAppend.js';

/** Watcher `j` of the fan-out workload (a main session, so its wake is real). */
const fanOutWatcher = (j: number): string => `agent:fan${j}:main`;

function* fanOutPairs(targets: number, watchers: number): Generator<WatchPair> {
  for (let i = 0; i < targets; i++) for (let j = 0; j < watchers; j++) yield { watcher: fanOutWatcher(j), target: targetKey(i) };
}

export async function w10FanOutScale(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { fanOutWatchers, fanOutTargets: sessions, fanOutRecords, fanOutMoves } = ctx.sizes;
  const results: WorkloadResult[] = [];
  for (const [index, watchers] of fanOutWatchers.entries()) {
    const records = Math.min(fanOutRecords, Math.max(200, Math.floor(fanOutMoves / watchers)));
    const id = `10${String.fromCharCode(97 + index)}`;
    const shape = { sessions, records, warmup: Math.ceil(records / 10), chunk: Math.ceil(records / 5), pairs: () => fanOutPairs(sessions, watchers), explainTail: true };
    results.push(await appendComparison(ctx, id, `fan-out: ${watchers} watcher(s) on each of ${sessions} targets, ${records} records`, shape));
  }
  return results;
}
