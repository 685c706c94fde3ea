// Workload 2: workload 1 with 10 watchers on each target, so every append moves 10 cursors
// (cursor fan-out) and offers 10 notices.
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { appendComparison, standardShape } from './w1SingleAppend.js';

export function w2FanOut(ctx: BenchContext): Promise<WorkloadResult> {
  const w = ctx.sizes.watchersPerTarget;
  return appendComparison(ctx, '2', `as 1 with ${w} watchers per target (cursor fan-out)`, standardShape(ctx, w));
}
