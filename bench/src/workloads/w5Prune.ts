// Workloads 5, 5m, pg5 and pg5m: pruning down to the row cap, the library's bounded batches
// (`awareness.prune()`, one transaction each) against one raw transaction; 5m at 1,000,000 rows, with
// the WAL's size sampled every timer turn. Also the rows and block check workload 8 shares.
import { statSync } from 'node:fs';

import type pg from 'pg';

import { measureBlocking } from '../harness/measure.js';
import { times, type BenchContext, type Check, type SideResult, type WorkloadResult } from '../harness/context.js';
import { openPgLibraryStore, startOnStore, startSqlite } from '../library/facade.js';
import { channelOf, openRawPool, rawPgPrune } from '../postgres/rawPg.js';
import { freshPlace, freshSchema, seedPgEvents, type PgBenchContext } from '../postgres/server.js';
import { openRawDb, rawPruneAll, seedEvents, type EventSeed } from '../raw/rawDb.js';
import { keysOf, recordInBatches, seededRawDb, targetKey } from './setup.js';

/** No single block of the event loop longer than this (workloads 5, 6 and 8). */
export const BLOCK_LIMIT_MS = 20;
/** Workloads 5m and pg5m: the library's whole prune at most this many times raw's one transaction. */
const PRUNE_AT_SCALE_TOTAL_LIMIT = 3;

/** One side's prune; `deleted` must be the excess over the cap. */
type TimedPrune = { readonly op: string; readonly totalMs: number; readonly maxBlockMs: number; readonly deleted: number };

async function timePrune(op: string, prune: () => number | Promise<number>): Promise<TimedPrune> {
  const m = await measureBlocking(prune);
  return { op, totalMs: m.totalMs, maxBlockMs: m.maxBlockMs, deleted: m.result };
}

function pruneResult(id: string, title: string, excess: number, library: TimedPrune, raw: TimedPrune): WorkloadResult {
  for (const [side, timed] of [['library', library], ['raw', raw]] as const) {
    if (timed.deleted !== excess) throw new Error(`${side} prune deleted ${timed.deleted} events, expected ${excess}`);
  }
  return { id, title, sides: [totalRow('library', library.op, excess, library), totalRow('raw', raw.op, excess, raw)], checks: [blockCheck(library, raw)] };
}

type Blocking = { readonly totalMs: number; readonly maxBlockMs: number };

/** A side whose `n` ops ran as one timed whole: ops/s over the total, no per-op latency. */
export const totalRow = (side: 'library' | 'raw', op: string, n: number, m: Blocking): SideResult => ({ side, op, n, opsPerSec: (n * 1000) / m.totalMs, p50Us: Number.NaN, p99Us: Number.NaN, totalMs: m.totalMs, maxBlockMs: m.maxBlockMs });

/** The check "no event-loop block above BLOCK_LIMIT_MS" (`from` names what blocked), with raw's block beside it. */
export const blockCheck = (library: Blocking, raw: Blocking, from = ''): Check => ({
  target: `library: no event-loop block above ${BLOCK_LIMIT_MS} ms${from}`,
  measured: `${library.maxBlockMs.toFixed(1)} ms max block (total ${library.totalMs.toFixed(0)} ms; raw ${raw.maxBlockMs.toFixed(1)} ms block)`,
  met: library.maxBlockMs <= BLOCK_LIMIT_MS,
});

/** The at-scale check: the library's total at most PRUNE_AT_SCALE_TOTAL_LIMIT × raw's. */
function totalCheck(library: { readonly totalMs: number }, raw: { readonly totalMs: number }, what: string): Check {
  const r = library.totalMs / raw.totalMs;
  return { target: `library: total ≤ ${PRUNE_AT_SCALE_TOTAL_LIMIT}× raw's ${what}`, measured: `${times(r)} (${library.totalMs.toFixed(0)} ms against ${raw.totalMs.toFixed(0)} ms)`, met: r <= PRUNE_AT_SCALE_TOTAL_LIMIT };
}

const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A fixed clock: nothing is old (only the row cap prunes), and no background prune starts on its own. */
const PRUNE_NOW = Date.UTC(2026, 10, 29);
/** Workload 5m's target: the WAL file never above this while the library prunes. */
const PRUNE_AT_SCALE_WAL_LIMIT_BYTES = 32 * 2 ** 20;

/** The largest size of `path`'s WAL file, sampled every timer turn until the returned function is called. */
function sampleWal(path: string): () => number {
  let max = 0;
  const sample = (): void => {
    max = Math.max(max, statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  };
  const timer = setInterval(sample, 1);
  return () => {
    clearInterval(timer);
    sample();
    return max;
  };
}

/** Workload 5 (the log seeded through `record`), or at scale 5m (seeded by SQL, the library's WAL sampled too, with the total and WAL targets). */
async function prune(ctx: BenchContext, atScale: boolean): Promise<WorkloadResult> {
  const { sessions } = ctx.sizes;
  const [id, cap, excess] = atScale ? ['5m', ctx.sizes.pruneAtScaleCap, ctx.sizes.pruneAtScaleExcess] : ['5', ctx.sizes.pruneCap, ctx.sizes.pruneExcess];
  const title = atScale ? `prune ${excess} rows beyond the ${cap}-row cap` : `prune ${excess} rows down to the ${cap}-row cap`;
  const seed: EventSeed = { count: cap + excess, sessionKeys: keysOf(sessions, targetKey), appendedAt: PRUNE_NOW };
  ctx.progress.update(`${id} ${title}: seeding the library`, 0, 2);
  const path = ctx.tempDb(`w${id}-library`);
  const awareness = await startSqlite(path, { fixedNow: PRUNE_NOW, maxRows: cap, maxAgeMs: MAX_AGE_MS });
  if (atScale) {
    // The start-up prune of the empty log finishes before the seed.
    await awareness.prune();
    const seeder = openRawDb(path, { existing: true }).client;
    seedEvents(seeder, seed);
    seeder.pragma('wal_checkpoint(TRUNCATE)');
    seeder.close();
  } else await recordInBatches(awareness, cap + excess, (i) => targetKey(i % sessions));
  ctx.progress.update(`${id} ${title}: library prune()`, 1, 2);
  const walMax = atScale ? sampleWal(path) : () => 0;
  const lib = { ...(await timePrune('prune() (rows/s)', async () => (await awareness.prune()).eventsDeleted)), walBytes: walMax() };
  await awareness.close();
  ctx.progress.update(`${id} ${title}: raw DELETE`, 1, 2);
  // The raw side: the same rows, one transaction deleting everything beyond the cap, the WAL sampled.
  const rawPath = ctx.tempDb(`w${id}-raw`);
  const rawDb = seededRawDb(rawPath, seed);
  rawDb.client.pragma('wal_checkpoint(TRUNCATE)');
  const rawWalMax = sampleWal(rawPath);
  const raw = { ...(await timePrune('one DELETE tx (rows/s)', () => rawPruneAll(rawDb, PRUNE_NOW, MAX_AGE_MS, cap))), walBytes: rawWalMax() };
  rawDb.client.close();
  const result = pruneResult(id, title, excess, lib, raw);
  if (!atScale) return result;
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  return {
    ...result,
    checks: [
      ...result.checks,
      totalCheck(lib, raw, 'one DELETE transaction'),
      { target: `library: WAL never above ${mb(PRUNE_AT_SCALE_WAL_LIMIT_BYTES)}`, measured: `${mb(lib.walBytes)} largest WAL (raw's one transaction: ${mb(raw.walBytes)})`, met: lib.walBytes <= PRUNE_AT_SCALE_WAL_LIMIT_BYTES },
    ],
  };
}

export const w5Prune = (ctx: BenchContext): Promise<WorkloadResult> => prune(ctx, false);
export const w5mPruneAtScale = (ctx: BenchContext): Promise<WorkloadResult> => prune(ctx, true);

/** Seeds the log (untimed) and vacuums it, so both sides start from pages in the same state. */
async function seedLog(pool: pg.Pool, seed: EventSeed): Promise<void> {
  await seedPgEvents(pool, seed);
  await pool.query('VACUUM ANALYZE events, heads');
}

/** pg5, or at scale (`--only pg5m` or the full run) pg5m: the size of SQLite's 5m, with the total-time target. */
async function pgPrune(ctx: PgBenchContext, atScale: boolean): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const [id, cap, excess] = atScale ? ['pg5m', sizes.pruneAtScaleCap, sizes.pruneAtScaleExcess] : ['pg5', sizes.pruneCap, sizes.pruneExcess];
  const title = atScale ? `prune ${excess} rows beyond the ${cap}-row cap` : `prune ${excess} rows down to the ${cap}-row cap`;
  const seed: EventSeed = { count: cap + excess, sessionKeys: keysOf(ctx.pg.sizes.sessions, targetKey), appendedAt: PRUNE_NOW };
  ctx.progress.update(`${id} ${title}: seeding the library`, 0, 2);
  const libPlace = freshPlace(ctx);
  const awareness = await startOnStore(await openPgLibraryStore(libPlace), { fixedNow: PRUNE_NOW, maxRows: cap, maxAgeMs: MAX_AGE_MS });
  let lib: TimedPrune;
  try {
    // A demanded prune queues behind the start-up one: once it resolves, nothing prunes before the measured run.
    await awareness.prune();
    const seeder = openRawPool(libPlace.url, libPlace.schema, 1);
    await seedLog(seeder, seed).finally(() => seeder.end());
    ctx.progress.update(`${id} ${title}: library prune()`, 1, 2);
    lib = await timePrune('prune() (rows/s)', async () => (await awareness.prune()).eventsDeleted);
  } finally {
    await awareness.close();
  }
  ctx.progress.update(`${id} ${title}: raw prune`, 1, 2);
  const { place: rawPlace, pool } = await freshSchema(ctx);
  // Seeded on its own pool: one connection open before the clock starts, as the library's pool has.
  const raw = await seedLog(pool, seed)
    .then(() => timePrune('one prune tx (rows/s)', () => rawPgPrune(pool, channelOf(rawPlace.schema), PRUNE_NOW, MAX_AGE_MS, cap)))
    .finally(() => pool.end());
  const result = pruneResult(id, title, excess, lib, raw);
  return atScale ? { ...result, checks: [...result.checks, totalCheck(lib, raw, 'one prune transaction')] } : result;
}

export const pg5Prune = (ctx: PgBenchContext): Promise<WorkloadResult> => pgPrune(ctx, false);
export const pg5mPruneAtScale = (ctx: PgBenchContext): Promise<WorkloadResult> => pgPrune(ctx, true);
