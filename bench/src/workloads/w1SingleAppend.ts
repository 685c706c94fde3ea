// Workload 1: one awaited `record` per transaction, 20,000 events over 1,000 sessions, against
// raw single-append transactions doing the same statements.
import { startSqlite } from '../library/facade';
import { runPaired } from '../harness/measure';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context';
import { libraryRecordOp, openRawWithPairs, rawRecordOp, watchPairs, watchPairsThroughFacade, type WatchPair } from './appendSetup';

/** What an append comparison records: over how many targets, how many ops, and which watch pairs. */
export interface AppendShape {
  readonly sessions: number;
  readonly records: number;
  readonly warmup: number;
  readonly chunk: number;
  /** The pairs registered before the run (each side gets the same). */
  readonly pairs: () => Iterable<WatchPair>;
}

/** Workloads 1 and 2's shape: the run's sizes with `watchers` per target (0 for workload 1). */
export function standardShape(ctx: BenchContext, watchers: number): AppendShape {
  const { sessions, records, warmup, chunk } = ctx.sizes;
  return { sessions, records, warmup, chunk, pairs: () => (watchers > 0 ? watchPairs(sessions, watchers) : []) };
}

/** Shared by workloads 1, 2 and 9: one awaited record per op against one raw append transaction. */
export async function appendComparison(ctx: BenchContext, id: string, title: string, shape: AppendShape): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const awareness = await startSqlite(ctx.tempDb(`w${id}-library`));
  await watchPairsThroughFacade(awareness, shape.pairs());
  const raw = openRawWithPairs(ctx, `w${id}-raw`, shape.pairs());
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: shape.records,
        warmup: shape.warmup,
        chunk: shape.chunk,
        sides: [
          { name: 'library', async: libraryRecordOp(awareness, shape.sessions) },
          { name: 'raw', sync: rawRecordOp(raw, shape.sessions) },
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    return latencyResult(id, title, { library: 'record', raw: 'append tx' }, lib, base, 1.2);
  } finally {
    await awareness.close();
    raw.client.close();
  }
}

export function w1SingleAppend(ctx: BenchContext): Promise<WorkloadResult> {
  return appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, standardShape(ctx, 0));
}
