// Workload 1: one awaited `record` per transaction, 20,000 events over 1,000 sessions, against
// raw single-append transactions doing the same statements.
import { startSqlite } from '../library/facade';
import { runPaired } from '../harness/measure';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context';
import { libraryRecordOp, openRawWithWatchers, rawRecordOp, watchThroughFacade } from './appendSetup';

/** Shared by workloads 1 and 2: `watchers` per target (0 for workload 1). */
export async function appendComparison(ctx: BenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const { sizes } = ctx;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const awareness = await startSqlite(ctx.tempDb(`w${id}-library`));
  if (watchers > 0) await watchThroughFacade(awareness, sizes.sessions, watchers);
  const raw = openRawWithWatchers(ctx, `w${id}-raw`, watchers);
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: sizes.records,
        warmup: sizes.warmup,
        chunk: sizes.chunk,
        sides: [
          { name: 'library', async: libraryRecordOp(awareness, sizes.sessions) },
          { name: 'raw', sync: rawRecordOp(raw, sizes.sessions) },
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    const p50 = ratio(lib.p50Us, base.p50Us);
    const p99 = ratio(lib.p99Us, base.p99Us);
    return {
      id,
      title,
      sides: [
        { side: 'library', op: 'record', ...lib },
        { side: 'raw', op: 'append tx', ...base },
      ],
      checks: [
        { target: 'library ≤ 1.2× raw at p50', measured: times(p50), met: p50 <= 1.2 },
        { target: 'library ≤ 1.2× raw at p99', measured: times(p99), met: p99 <= 1.2 },
      ],
    };
  } finally {
    await awareness.close();
    raw.client.close();
  }
}

export function w1SingleAppend(ctx: BenchContext): Promise<WorkloadResult> {
  return appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, 0);
}
