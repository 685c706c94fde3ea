// PostgreSQL workloads 1–3: one awaited `record` per transaction over the facade on the PostgreSQL
// store against raw pg single-append transactions; pg2 with watchers on every target; pg3 with 100
// calls in flight (group commit) against the raw single appends.
import type pg from 'pg';

import { openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired, sidesOf } from '../harness/measure.js';
import { ratio, times, type WorkloadResult } from '../harness/context.js';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/server.js';
import { rawPgAppender } from '../postgres/rawAppend.js';
import { openRawPool } from '../postgres/rawPg.js';
import { costNote, measureCostPair } from '../postgres/opCost.js';
import { createStoreSchema, idleCursor, seedPgCursors } from '../postgres/seed.js';
import { watchPairs } from './appendSetup.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey } from './keys.js';

/** Ops per side (in two halves) of the cost pass. */
export const COUNTED_OPS = 100;

/** The store's LISTEN/NOTIFY channel for a schema. */
export const channelOf = (schema: string): string => `session_state:${schema}`;

/** Op indexes `from + part·half …` of a cost pass, awaited one at a time. */
export const costOps = (from: number, half: number, op: (i: number) => Promise<unknown>) => async (part: 0 | 1): Promise<void> => {
  for (let i = from + part * half; i < from + (part + 1) * half; i++) await op(i);
};

interface PgAppendSides {
  readonly awareness: Awareness;
  readonly rawPool: pg.Pool;
  /** Op `i`: one awaited record on target `i mod sessions`, each side. */
  library(i: number): Promise<void>;
  raw(i: number): Promise<void>;
  close(): Promise<void>;
}

/** Both sides on fresh schemas; `watchers` idle cursors per target seeded by SQL on both (untimed). */
async function openPgAppendSides(ctx: PgBenchContext, watchers: number): Promise<PgAppendSides> {
  const { sessions } = ctx.pg.sizes;
  const lib = freshPlace(ctx);
  const store = await openPgLibraryStore(lib);
  const raw = freshPlace(ctx);
  await createStoreSchema(raw.url, raw.schema);
  const rawPool = openRawPool(raw.url, raw.schema, PG_POOL_SIZE);
  if (watchers > 0) {
    const now = Date.now();
    const seeder = openRawPool(lib.url, lib.schema, 1);
    await seedPgCursors(seeder, [...watchPairs(sessions, watchers)].map((p) => idleCursor(p, now)));
    await seeder.end();
    await seedPgCursors(rawPool, [...watchPairs(sessions, watchers)].map((p) => idleCursor(p, now)));
  }
  const awareness = await startOnStore(store);
  const rawAppend = rawPgAppender(rawPool, channelOf(raw.schema));
  return {
    awareness,
    rawPool,
    library: async (i) => expectRecorded(await awareness.record(humanTurn(targetKey(i % sessions))), 'library record'),
    raw: async (i) => void (await rawAppend(rawHumanTurn(targetKey(i % sessions)), Date.now())),
    close: async () => {
      await awareness.close();
      await rawPool.end();
    },
  };
}

async function pgAppendComparison(ctx: PgBenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const sides = await openPgAppendSides(ctx, watchers);
  try {
    const stats = await runPaired({ label: `${id} ${title}`, n: sizes.records, warmup: sizes.warmup, chunk: sizes.chunk, sides: [{ name: 'library', async: sides.library }, { name: 'raw', async: sides.raw }] }, ctx.progress);
    const [lib, base] = sidesOf(stats, 'library', 'raw');
    const from = sizes.warmup + sizes.records;
    const cost = await measureCostPair(COUNTED_OPS / 2, costOps(from, COUNTED_OPS / 2, sides.library), costOps(from, COUNTED_OPS / 2, sides.raw));
    return { id, title, sides: [{ side: 'library', op: 'record', ...lib }, { side: 'raw', op: 'append tx', ...base }], checks: [], notes: [costNote(id, 'record', cost)] };
  } finally {
    await sides.close();
  }
}

export const pg1SingleAppend = (ctx: PgBenchContext): Promise<WorkloadResult> => pgAppendComparison(ctx, 'pg1', `single record per tx, ${ctx.pg.sizes.records} events / ${ctx.pg.sizes.sessions} sessions`, 0);

export const pg2FanOut = (ctx: PgBenchContext): Promise<WorkloadResult> =>
  pgAppendComparison(ctx, 'pg2', `as pg1 with ${ctx.pg.sizes.watchersPerTarget} watchers per target (cursor fan-out, notify)`, ctx.pg.sizes.watchersPerTarget);

export async function pg3InFlight(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const title = `${sizes.inFlight} records in flight at once (group commit)`;
  ctx.progress.update('pg3: set-up', 0, 1);
  const sides = await openPgAppendSides(ctx, 0);
  const burst = async (i: number): Promise<void> => {
    const calls = [];
    for (let k = 0; k < sizes.inFlight; k++) calls.push(sides.awareness.record(humanTurn(targetKey((i + k) % sizes.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
  };
  try {
    // A whole number of bursts per chunk: a library call covers `inFlight` op indexes.
    const chunk = Math.ceil(sizes.chunk / sizes.inFlight) * sizes.inFlight;
    const stats = await runPaired({ label: `pg3 ${title}`, n: sizes.records, warmup: sizes.warmup, chunk, sides: [{ name: 'library', opsPerCall: sizes.inFlight, async: burst }, { name: 'raw', async: sides.raw }] }, ctx.progress);
    const [lib, base] = sidesOf(stats, 'library', 'raw');
    const from = sizes.warmup + sizes.records;
    const cost = await measureCostPair(sizes.inFlight, (part) => burst(from + part * sizes.inFlight), costOps(from, sizes.inFlight, sides.raw));
    return {
      id: 'pg3',
      title,
      sides: [{ side: 'library', op: `burst of ${sizes.inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }],
      checks: [],
      latencyComparable: false,
      notes: [`pg3: library throughput ${times(ratio(lib.opsPerSec, base.opsPerSec))} raw single appends; latency is per burst of ${sizes.inFlight} records.`, costNote('pg3', 'record', cost)],
    };
  } finally {
    await sides.close();
  }
}
