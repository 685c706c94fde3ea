// PostgreSQL workloads 1–3: one awaited `record` per transaction against raw pg single appends; pg2
// with watchers on every target; pg3 with 100 calls in flight (group commit).
import { openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired } from '../harness/measure.js';
import { ratio, times, type WorkloadResult } from '../harness/context.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { channelOf, rawPgAppender } from '../postgres/rawPg.js';
import { costNote, measureCostPair } from '../postgres/opCost.js';
import { freshRawSide, idleCursor, seedPgCursors, withPool } from '../postgres/seed.js';
import { libraryBurstOp, libraryRecordOp, watchPairs } from './appendSetup.js';
import { rawHumanTurn, targetKey } from './keys.js';

/** Ops per side (in two halves) of the cost pass. */
export const COUNTED_OPS = 100;

/** Op indexes `from + part·half …` of a cost pass, awaited one at a time. */
export const costOps = (from: number, half: number, op: (i: number) => Promise<unknown>) => async (part: 0 | 1): Promise<void> => {
  for (let i = from + part * half; i < from + (part + 1) * half; i++) await op(i);
};

/** The cost pass of COUNTED_OPS ops per side from index `from`. */
export const costOfOps = (from: number, library: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>) =>
  measureCostPair(COUNTED_OPS / 2, costOps(from, COUNTED_OPS / 2, library), costOps(from, COUNTED_OPS / 2, raw));

/** Both sides on fresh schemas, `watchers` idle cursors per target seeded by SQL on both (untimed); op `i` records on target `i mod sessions`. */
async function openPgAppendSides(ctx: PgBenchContext, watchers: number) {
  const { sessions } = ctx.pg.sizes;
  const lib = freshPlace(ctx);
  const store = await openPgLibraryStore(lib);
  const raw = await freshRawSide(ctx);
  const now = Date.now();
  const cursors = [...watchPairs(sessions, watchers)].map((p) => idleCursor(p, now));
  if (watchers > 0) {
    await withPool(lib, (pool) => seedPgCursors(pool, cursors));
    await seedPgCursors(raw.pool, cursors);
  }
  const awareness: Awareness = await startOnStore(store);
  const rawAppend = rawPgAppender(raw.pool, channelOf(raw.place.schema));
  return {
    awareness,
    library: libraryRecordOp(awareness, sessions),
    raw: async (i: number): Promise<void> => void (await rawAppend(rawHumanTurn(targetKey(i % sessions)), Date.now())),
    close: async (): Promise<void> => {
      await awareness.close();
      await raw.pool.end();
    },
  };
}

async function pgAppendComparison(ctx: PgBenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const { records: n, warmup, chunk } = ctx.pg.sizes;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const sides = await openPgAppendSides(ctx, watchers);
  try {
    const [lib, base] = await runPaired({ label: `${id} ${title}`, n, warmup, chunk, sides: [{ name: 'library', async: sides.library }, { name: 'raw', async: sides.raw }] }, ctx.progress);
    const cost = await costOfOps(warmup + n, sides.library, sides.raw);
    return { id, title, sides: [{ side: 'library', op: 'record', ...lib }, { side: 'raw', op: 'append tx', ...base }], checks: [], notes: [costNote(id, 'record', cost)] };
  } finally {
    await sides.close();
  }
}

export const pg1SingleAppend = (ctx: PgBenchContext): Promise<WorkloadResult> => pgAppendComparison(ctx, 'pg1', `single record per tx, ${ctx.pg.sizes.records} events / ${ctx.pg.sizes.sessions} sessions`, 0);

export const pg2FanOut = (ctx: PgBenchContext): Promise<WorkloadResult> =>
  pgAppendComparison(ctx, 'pg2', `as pg1 with ${ctx.pg.sizes.watchersPerTarget} watchers per target (cursor fan-out, notify)`, ctx.pg.sizes.watchersPerTarget);

export async function pg3InFlight(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup } = ctx.pg.sizes;
  const title = `${inFlight} records in flight at once (group commit)`;
  ctx.progress.update('pg3: set-up', 0, 1);
  const sides = await openPgAppendSides(ctx, 0);
  const burst = libraryBurstOp(sides.awareness, inFlight, sessions);
  try {
    // A whole number of bursts per chunk: a library call covers `inFlight` op indexes.
    const chunk = Math.ceil(ctx.pg.sizes.chunk / inFlight) * inFlight;
    const [lib, base] = await runPaired({ label: `pg3 ${title}`, n, warmup, chunk, sides: [{ name: 'library', opsPerCall: inFlight, async: burst }, { name: 'raw', async: sides.raw }] }, ctx.progress);
    const from = warmup + n;
    const cost = await measureCostPair(inFlight, (part) => burst(from + part * inFlight), costOps(from, inFlight, sides.raw));
    return {
      id: 'pg3',
      title,
      sides: [{ side: 'library', op: `burst of ${inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }],
      checks: [],
      latencyComparable: false,
      notes: [`pg3: library throughput ${times(ratio(lib.opsPerSec, base.opsPerSec))} raw single appends; latency is per burst of ${inFlight} records.`, costNote('pg3', 'record', cost)],
    };
  } finally {
    await sides.close();
  }
}
