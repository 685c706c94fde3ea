// Workloads 1, 2, 3 and 10: one awaited `record` per transaction against raw single-append
// transactions doing the same statements (workload 1 also on node:sqlite), and 3's 100 calls in
// flight at once, which group commit turns into one transaction.
import { startSqlite } from '../library/facade.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { nodeRawAppender, openNodeRawDb, rawAppender } from '../raw/rawDb.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { targetKey } from './keys.js';
import { inFlightComparison, libraryBurstOp, libraryRecordOp, openRawWithPairs, rawRecordOp, watchPairs, watchThroughFacade, type WatchPair } from './appendSetup.js';

/** `pairs`: registered before the run, the same on each side; `nodeSqlite`: a node:sqlite pair too. */
type AppendShape = { sessions: number; records: number; warmup: number; chunk: number; pairs: () => Iterable<WatchPair>; nodeSqlite?: boolean };

async function appendComparison(ctx: BenchContext, id: string, title: string, shape: AppendShape): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const awareness = await startSqlite(ctx.tempDb(`w${id}-library`));
  await watchThroughFacade(awareness, shape.pairs());
  const raw = openRawWithPairs(ctx.tempDb(`w${id}-raw`), shape.pairs());
  // The node:sqlite pair: the same ops on a facade and a raw file of its own.
  const nodeAwareness = shape.nodeSqlite === true ? await startSqlite(ctx.tempDb(`w${id}-library-node`), { driver: 'node:sqlite' }) : undefined;
  const nodeRaw = nodeAwareness !== undefined ? openNodeRawDb(ctx.tempDb(`w${id}-raw-node`)) : undefined;
  try {
    const sides: BenchSide[] = [{ name: 'library', async: libraryRecordOp(awareness, shape.sessions) }, { name: 'raw', sync: rawRecordOp(rawAppender(raw), shape.sessions) }];
    if (nodeAwareness !== undefined && nodeRaw !== undefined) {
      sides.push({ name: 'library node:sqlite', async: libraryRecordOp(nodeAwareness, shape.sessions) }, { name: 'raw node:sqlite', sync: rawRecordOp(nodeRawAppender(nodeRaw), shape.sessions) });
    }
    return latencyResult(id, title, { library: 'record', raw: 'append tx' }, await runPaired({ label: `${id} ${title}`, n: shape.records, warmup: shape.warmup, chunk: shape.chunk, sides }, ctx.progress), 1.2);
  } finally {
    await awareness.close();
    raw.client.close();
    await nodeAwareness?.close();
    nodeRaw?.client.close();
  }
}

function standardShape(ctx: BenchContext, watchers: number): AppendShape {
  const { sessions, records, warmup, chunk } = ctx.sizes;
  return { sessions, records, warmup, chunk, pairs: () => (watchers > 0 ? watchPairs(sessions, watchers) : []) };
}

export const w1SingleAppend = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, { ...standardShape(ctx, 0), nodeSqlite: true });

export const w2FanOut = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '2', `as 1 with ${ctx.sizes.watchersPerTarget} watchers per target (cursor fan-out)`, standardShape(ctx, ctx.sizes.watchersPerTarget));

export async function w3InFlight(ctx: BenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup, chunk } = ctx.sizes;
  ctx.progress.update('3: set-up', 0, 1);
  const awareness = await startSqlite(ctx.tempDb('w3-library'));
  const raw = openRawWithPairs(ctx.tempDb('w3-raw'), []);
  try {
    return await inFlightComparison(ctx, '3', { n, warmup, chunk, inFlight }, libraryBurstOp(awareness, inFlight, sessions), { name: 'raw', sync: rawRecordOp(rawAppender(raw), sessions) }, 3);
  } finally {
    await awareness.close();
    raw.client.close();
  }
}

/** Workload 10: every watcher watches every one of a few targets, so each record moves `watchers` cursors. */
export async function w10FanOutScale(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { fanOutWatchers, fanOutTargets: sessions, fanOutRecords, fanOutMoves } = ctx.sizes;
  const results: WorkloadResult[] = [];
  for (const [index, watchers] of fanOutWatchers.entries()) {
    const records = Math.min(fanOutRecords, Math.max(200, Math.floor(fanOutMoves / watchers)));
    const pairs = function* (): Generator<WatchPair> {
      for (let i = 0; i < sessions; i++) for (let j = 0; j < watchers; j++) yield { watcher: `agent:fan${j}:main`, target: targetKey(i) };
    };
    const shape = { sessions, records, warmup: Math.ceil(records / 10), chunk: Math.ceil(records / 5), pairs };
    results.push(await appendComparison(ctx, `10${String.fromCharCode(97 + index)}`, `fan-out: ${watchers} watcher(s) on each of ${sessions} targets, ${records} records`, shape));
  }
  return results;
}
