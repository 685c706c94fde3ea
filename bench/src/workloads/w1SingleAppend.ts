// Workload 1: one awaited `record` per transaction, 20,000 events over 1,000 sessions, against
// raw single-append transactions doing the same statements.
import { startSqlite } from '../library/facade.js';
import { gcDuringSides } from '../harness/gcDuringSides.js';
import { runPaired, type BenchSide } from '../harness/measure.js';
import { nodeRawAppender, openNodeRawDb } from '../raw/nodeRawDb.js';
import { walFramesPerRecord } from '../raw/walFramesPerRecord.js';
import { latencyResult, nodeSqliteSides, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { rawHumanTurn, targetKey } from './keys.js';
import { libraryRecordOp, openRawWithPairs, rawRecordOp, watchPairs, watchPairsThroughFacade, type WatchPair } from './appendSetup.js';

/** What an append comparison records: over how many targets, how many ops, and which watch pairs. */
export interface AppendShape {
  readonly sessions: number;
  readonly records: number;
  readonly warmup: number;
  readonly chunk: number;
  /** The pairs registered before the run (each side gets the same). */
  readonly pairs: () => Iterable<WatchPair>;
  /** Adds a note: each side's WAL frames per record and its garbage collections during its chunks. */
  readonly explainTail?: boolean;
  /** Also runs the library on node:sqlite against raw node:sqlite (workload 1's node:sqlite column; no watch pairs). */
  readonly nodeSqlite?: boolean;
}

/** Records per side the WAL frame count runs on, after the measured ones (10 keep 1,000 watchers per target under the auto-checkpoint). */
const FRAME_COUNT_RECORDS = 10;

/** Workloads 1 and 2's shape: the run's sizes with `watchers` per target (0 for workload 1). */
export function standardShape(ctx: BenchContext, watchers: number): AppendShape {
  const { sessions, records, warmup, chunk } = ctx.sizes;
  return { sessions, records, warmup, chunk, pairs: () => (watchers > 0 ? watchPairs(sessions, watchers) : []) };
}

/** Shared by workloads 1, 2 and 9: one awaited record per op against one raw append transaction. */
export async function appendComparison(ctx: BenchContext, id: string, title: string, shape: AppendShape): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const libraryPath = ctx.tempDb(`w${id}-library`);
  const awareness = await startSqlite(libraryPath);
  await watchPairsThroughFacade(awareness, shape.pairs());
  const raw = openRawWithPairs(ctx, `w${id}-raw`, shape.pairs());
  const libraryOp = libraryRecordOp(awareness, shape.sessions);
  const rawOp = rawRecordOp(raw, shape.sessions);
  const node = shape.nodeSqlite === true ? await nodeSqliteAppendSides(ctx, id, shape.sessions) : undefined;
  const gc = shape.explainTail === true ? gcDuringSides() : undefined;
  const isChunkStart = (i: number): boolean => i >= shape.warmup && (i - shape.warmup) % shape.chunk === 0;
  try {
    const stats = await runPaired(
      {
        label: `${id} ${title}`,
        n: shape.records,
        warmup: shape.warmup,
        chunk: shape.chunk,
        sides: [
          { name: 'library', async: gc === undefined ? libraryOp : gc.mark('library', isChunkStart, libraryOp) },
          { name: 'raw', sync: gc === undefined ? rawOp : gc.mark('raw', isChunkStart, rawOp) },
          ...(node?.sides ?? []),
        ],
      },
      ctx.progress,
    );
    const lib = stats['library'];
    const base = stats['raw'];
    if (lib === undefined || base === undefined) throw new Error('missing side');
    const both = latencyResult(id, title, { library: 'record', raw: 'append tx' }, lib, base, 1.2);
    const nodeLib = stats['library node:sqlite'];
    const nodeRaw = stats['raw node:sqlite'];
    const column = nodeLib !== undefined && nodeRaw !== undefined ? nodeSqliteSides({ library: 'record', raw: 'append tx' }, nodeLib, nodeRaw, 1.2) : undefined;
    const result = column === undefined ? both : { ...both, sides: [...both.sides, ...column.sides], checks: [...both.checks, ...column.checks] };
    if (gc === undefined) return result;
    const collections = await gc.stop();
    const after = shape.warmup + shape.records;
    const libraryFrames = await walFramesPerRecord(libraryPath, FRAME_COUNT_RECORDS, (k) => libraryOp(after + k));
    const rawFrames = await walFramesPerRecord(raw.client.name, FRAME_COUNT_RECORDS, (k) => rawOp(after + k));
    return { ...result, notes: [tailNote(id, { library: libraryFrames, raw: rawFrames }, collections)] };
  } finally {
    await awareness.close();
    raw.client.close();
    await node?.close();
  }
}

/** The node:sqlite column's two sides: the facade on node:sqlite and raw node:sqlite, each on a fresh file. */
async function nodeSqliteAppendSides(ctx: BenchContext, id: string, sessions: number) {
  const awareness = await startSqlite(ctx.tempDb(`w${id}-library-node`), { driver: 'node:sqlite' });
  const raw = openNodeRawDb(ctx.tempDb(`w${id}-raw-node`));
  const append = nodeRawAppender(raw);
  const sides: BenchSide[] = [
    { name: 'library node:sqlite', async: libraryRecordOp(awareness, sessions) },
    { name: 'raw node:sqlite', sync: (i) => void append(rawHumanTurn(targetKey(i % sessions)), Date.now()) },
  ];
  return {
    sides,
    close: async () => {
      await awareness.close();
      raw.client.close();
    },
  };
}

/** `10a: WAL frames per record library 9.3 / raw 9.3; GC during the measured chunks: library 12 (7.0 ms) / raw 1 (0.5 ms)`. */
function tailNote(
  id: string,
  frames: { readonly library: number | undefined; readonly raw: number | undefined },
  gc: Record<string, { readonly collections: number; readonly pauseMs: number }>,
): string {
  const perRecord = (f: number | undefined): string => (f === undefined ? '?' : f.toFixed(1));
  const gcOf = (side: string): string => `${gc[side]?.collections ?? 0} (${(gc[side]?.pauseMs ?? 0).toFixed(1)} ms)`;
  return `${id}: WAL frames per record library ${perRecord(frames.library)} / raw ${perRecord(frames.raw)}; GC during the measured chunks: library ${gcOf('library')} / raw ${gcOf('raw')}`;
}

export function w1SingleAppend(ctx: BenchContext): Promise<WorkloadResult> {
  return appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, { ...standardShape(ctx, 0), nodeSqlite: true });
}
