// PostgreSQL workloads 5 and 5m: pruning a log down to its row cap, the library's bounded batches
// (`awareness.prune()`, one transaction each) against the store's statements in one transaction.
import type pg from 'pg';

import { openPgLibraryStore, startOnStore } from '../library/facade.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { channelOf, rawPgPrune } from '../postgres/rawPg.js';
import { freshSchema, seedPgEvents, withPool } from '../postgres/seed.js';
import type { EventSeed } from '../raw/seed.js';
import { keysOf, targetKey } from './keys.js';
import { pruneResult, timePrune, totalCheck, type TimedPrune } from './pruneResult.js';
import { MAX_AGE_MS, PRUNE_NOW } from './w5Prune.js';

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
    await withPool(libPlace, (pool) => seedLog(pool, seed));
    ctx.progress.update(`${id} ${title}: library prune()`, 1, 2);
    lib = await timePrune('prune() (rows/s)', async () => (await awareness.prune()).eventsDeleted);
  } finally {
    await awareness.close();
  }
  ctx.progress.update(`${id} ${title}: raw prune`, 1, 2);
  const { place: rawPlace, pool } = await freshSchema(ctx);
  let raw: TimedPrune;
  try {
    // Seeded on its own pool: one connection open before the clock starts, as the library's pool has.
    await seedLog(pool, seed);
    raw = await timePrune('one prune tx (rows/s)', () => rawPgPrune(pool, channelOf(rawPlace.schema), PRUNE_NOW, MAX_AGE_MS, cap));
  } finally {
    await pool.end();
  }
  const result = pruneResult(id, title, excess, lib, raw);
  return atScale ? { ...result, checks: [...result.checks, totalCheck(lib, raw, 'one prune transaction')] } : result;
}

export const pg5Prune = (ctx: PgBenchContext): Promise<WorkloadResult> => pgPrune(ctx, false);
export const pg5mPruneAtScale = (ctx: PgBenchContext): Promise<WorkloadResult> => pgPrune(ctx, true);
