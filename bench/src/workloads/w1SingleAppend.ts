// Workloads 1, 2 and 10: one awaited `record` per transaction against raw single-append
// transactions doing the same statements; workload 1 also on node:sqlite.
import { startSqlite } from '../library/facade.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { nodeRawAppender, openNodeRawDb } from '../raw/rawDb.js';
import { walFramesPerRecord } from '../raw/walFramesPerRecord.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { rawHumanTurn, targetKey } from './keys.js';
import { libraryRecordOp, openRawWithPairs, rawRecordOp, watchPairs, watchThroughFacade, type WatchPair } from './appendSetup.js';

export interface AppendShape {
  readonly sessions: number;
  readonly records: number;
  readonly warmup: number;
  readonly chunk: number;
  /** The pairs registered before the run (each side gets the same); a note of each side's WAL frames per record; a node:sqlite pair too. */
  readonly pairs: () => Iterable<WatchPair>;
  readonly explainTail?: boolean;
  readonly nodeSqlite?: boolean;
}

/** Records per side the WAL frame count runs on, after the measured ones. */
const FRAME_COUNT_RECORDS = 10;

export function standardShape(ctx: BenchContext, watchers: number): AppendShape {
  const { sessions, records, warmup, chunk } = ctx.sizes;
  return { sessions, records, warmup, chunk, pairs: () => (watchers > 0 ? watchPairs(sessions, watchers) : []) };
}

export async function appendComparison(ctx: BenchContext, id: string, title: string, shape: AppendShape): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const libraryPath = ctx.tempDb(`w${id}-library`);
  const awareness = await startSqlite(libraryPath);
  await watchThroughFacade(awareness, shape.pairs());
  const raw = openRawWithPairs(ctx, `w${id}-raw`, shape.pairs());
  const libraryOp = libraryRecordOp(awareness, shape.sessions);
  const rawOp = rawRecordOp(raw, shape.sessions);
  // The node:sqlite pair (workload 1): the same ops on a facade and a raw file of its own.
  const nodeAwareness = shape.nodeSqlite === true ? await startSqlite(ctx.tempDb(`w${id}-library-node`), { driver: 'node:sqlite' }) : undefined;
  const nodeRaw = nodeAwareness !== undefined ? openNodeRawDb(ctx.tempDb(`w${id}-raw-node`)) : undefined;
  try {
    const sides: BenchSide[] = [{ name: 'library', async: libraryOp }, { name: 'raw', sync: rawOp }];
    if (nodeAwareness !== undefined && nodeRaw !== undefined) {
      const append = nodeRawAppender(nodeRaw);
      sides.push({ name: 'library node:sqlite', async: libraryRecordOp(nodeAwareness, shape.sessions) }, { name: 'raw node:sqlite', sync: (i) => void append(rawHumanTurn(targetKey(i % shape.sessions)), Date.now()) });
    }
    const result = latencyResult(id, title, { library: 'record', raw: 'append tx' }, await runPaired({ label: `${id} ${title}`, n: shape.records, warmup: shape.warmup, chunk: shape.chunk, sides }, ctx.progress), 1.2);
    if (shape.explainTail !== true) return result;
    const after = shape.warmup + shape.records;
    const frames = {
      library: await walFramesPerRecord(libraryPath, FRAME_COUNT_RECORDS, (k) => libraryOp(after + k)),
      raw: await walFramesPerRecord(raw.client.name, FRAME_COUNT_RECORDS, (k) => rawOp(after + k)),
    };
    const perRecord = (f: number | undefined): string => (f === undefined ? '?' : f.toFixed(1));
    return { ...result, notes: [`${id}: WAL frames per record library ${perRecord(frames.library)} / raw ${perRecord(frames.raw)}.`] };
  } finally {
    await awareness.close();
    raw.client.close();
    await nodeAwareness?.close();
    nodeRaw?.client.close();
  }
}

export const w1SingleAppend = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, { ...standardShape(ctx, 0), nodeSqlite: true });

export const w2FanOut = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '2', `as 1 with ${ctx.sizes.watchersPerTarget} watchers per target (cursor fan-out)`, standardShape(ctx, ctx.sizes.watchersPerTarget));

/** Workload 10: every watcher watches every one of a few targets, so each record moves `watchers` cursors. */
export async function w10FanOutScale(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { fanOutWatchers, fanOutTargets: sessions, fanOutRecords, fanOutMoves } = ctx.sizes;
  const results: WorkloadResult[] = [];
  for (const [index, watchers] of fanOutWatchers.entries()) {
    const records = Math.min(fanOutRecords, Math.max(200, Math.floor(fanOutMoves / watchers)));
    const pairs = function* (): Generator<WatchPair> {
      for (let i = 0; i < sessions; i++) for (let j = 0; j < watchers; j++) yield { watcher: `agent:fan${j}:main`, target: targetKey(i) };
    };
    const shape = { sessions, records, warmup: Math.ceil(records / 10), chunk: Math.ceil(records / 5), pairs, explainTail: true };
    results.push(await appendComparison(ctx, `10${String.fromCharCode(97 + index)}`, `fan-out: ${watchers} watcher(s) on each of ${sessions} targets, ${records} records`, shape));
  }
  return results;
}
