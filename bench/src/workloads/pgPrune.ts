// PostgreSQL workload 5: pruning a log down to its row cap – the total time, and the longest
// single block of the event loop – the library's bounded batches (`awareness.prune()`, one
// transaction each, yielding between them) against the store's statements run raw in one
// transaction.
import { startPostgres } from '../library/postgres.js';
import { measureBlocking } from '../harness/loopBlock.js';
import { ratio, times, type WorkloadResult } from '../harness/context.js';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/context.js';
import { describeOpCost, measureOpCost, type OpCost } from '../postgres/opCost.js';
import { rawPgPrune } from '../postgres/rawPrune.js';
import { openRawPool } from '../postgres/rawPg.js';
import { createStoreSchema, seedPgEvents } from '../postgres/seed.js';
import type { EventSeed } from '../raw/seed.js';
import { channelOf } from './pgAppend.js';
import { targetKey } from './keys.js';
import { pruneResult } from './pruneResult.js';

const DAY = 24 * 60 * 60 * 1000;
const MAX_AGE_MS = 30 * DAY;

/** Seeds the log (untimed), then vacuums it, so both sides start from pages in the same state. */
async function seedLog(url: string, schema: string, seed: EventSeed): Promise<void> {
  const seeder = openRawPool(url, schema, 1);
  try {
    await seedPgEvents(seeder, seed);
    await seeder.query('VACUUM ANALYZE events, heads');
  } finally {
    await seeder.end();
  }
}

/** Target of pg5m: the library's whole prune takes at most this many times raw's one transaction. */
export const PG_PRUNE_AT_SCALE_TOTAL_LIMIT = 3;

/** pg5: the log pruned down to the cap at the column's size. */
export function pg5Prune(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { pruneCap, pruneExcess } = ctx.pg.sizes;
  return pgPrune(ctx, 'pg5', pruneCap, pruneExcess, `prune ${pruneExcess} rows down to the ${pruneCap}-row cap (5: ${ctx.sizes.pruneExcess} / ${ctx.sizes.pruneCap})`);
}

/** pg5m (full run only, or `--only pg5m`): 1,000,000 rows beyond a 50,000-row cap, as SQLite's 5m, with the total-time target. */
export async function pg5mPruneAtScale(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { pruneAtScaleCap, pruneAtScaleExcess } = ctx.pg.sizes;
  const same = pruneAtScaleCap === ctx.sizes.pruneAtScaleCap && pruneAtScaleExcess === ctx.sizes.pruneAtScaleExcess;
  const result = await pgPrune(ctx, 'pg5m', pruneAtScaleCap, pruneAtScaleExcess, `prune ${pruneAtScaleExcess} rows beyond the ${pruneAtScaleCap}-row cap`, same);
  const [library, raw] = result.sides;
  const totalRatio = ratio(library?.totalMs ?? Number.NaN, raw?.totalMs ?? Number.NaN);
  return {
    ...result,
    checks: [
      ...result.checks,
      {
        target: `library: total ≤ ${PG_PRUNE_AT_SCALE_TOTAL_LIMIT}× raw's one prune transaction`,
        measured: `${times(totalRatio)} (${library?.totalMs?.toFixed(0)} ms against ${raw?.totalMs?.toFixed(0)} ms)`,
        met: totalRatio <= PG_PRUNE_AT_SCALE_TOTAL_LIMIT,
      },
    ],
  };
}

async function pgPrune(ctx: PgBenchContext, id: string, pruneCap: number, pruneExcess: number, title: string, sameAsSqlite = false): Promise<WorkloadResult> {
  const { sessions } = ctx.pg.sizes;
  // A fixed clock: nothing is old (only the row cap prunes), and no hourly background prune starts.
  const now = Date.UTC(2026, 10, 29);
  const seed: EventSeed = { count: pruneCap + pruneExcess, sessionKeys: Array.from({ length: sessions }, (_, i) => targetKey(i)), appendedAt: now };

  // --- library: the facade on its own store, the log seeded by SQL into the store's schema ---
  ctx.progress.update(`${id} ${title}: seeding library`, 0, 2);
  const libPlace = freshPlace(ctx);
  const awareness = await startPostgres(libPlace, { fixedNow: now, maxRows: pruneCap, maxAgeMs: MAX_AGE_MS });
  let libTimed: { totalMs: number; maxBlockMs: number; cost: OpCost; deleted: number };
  try {
    // The facade starts a background prune (of the still empty log); a demanded one queues behind
    // it in the lane, so once this resolves nothing prunes the log before the measured run.
    await awareness.prune();
    await seedLog(libPlace.url, libPlace.schema, seed);
    ctx.progress.update(`${id} ${title}: library prune()`, 1, 2);
    let deleted = 0;
    // Queries are counted as the prune runs (a few per batch: negligible next to their round trips).
    const m = await measureBlocking(() =>
      measureOpCost(1, async () => {
        deleted = (await awareness.prune()).eventsDeleted;
      }),
    );
    libTimed = { totalMs: m.totalMs, maxBlockMs: m.maxBlockMs, cost: m.result, deleted };
  } finally {
    await awareness.close();
  }

  // --- raw: the same rows in the store's tables, one transaction deleting everything beyond the cap ---
  ctx.progress.update(`${id} ${title}: raw prune`, 1, 2);
  const rawPlace = freshPlace(ctx);
  await createStoreSchema(rawPlace.url, rawPlace.schema);
  await seedLog(rawPlace.url, rawPlace.schema, seed);
  const pool = openRawPool(rawPlace.url, rawPlace.schema, PG_POOL_SIZE);
  let rawTimed: { totalMs: number; maxBlockMs: number; cost: OpCost; deleted: number };
  try {
    // One connection made before the clock starts, as the library's pool has its own open.
    (await pool.connect()).release();
    let deleted = 0;
    const m = await measureBlocking(() =>
      measureOpCost(1, async () => {
        deleted = await rawPgPrune(pool, channelOf(rawPlace.schema), now, MAX_AGE_MS, pruneCap);
      }),
    );
    rawTimed = { totalMs: m.totalMs, maxBlockMs: m.maxBlockMs, cost: m.result, deleted };
  } finally {
    await pool.end();
  }

  return pruneResult({
    id,
    title,
    excess: pruneExcess,
    library: { op: 'prune() (rows/s)', ...libTimed },
    raw: { op: 'one prune tx (rows/s)', ...rawTimed },
    notes: [
      `${id}: library total time ${times(ratio(libTimed.totalMs, rawTimed.totalMs))} raw's (${libTimed.totalMs.toFixed(0)} ms against ${rawTimed.totalMs.toFixed(0)} ms); one prune per side on a log seeded by SQL and vacuumed (untimed); ${sameAsSqlite ? 'the size of' : 'smaller than'} SQLite's workload ${id.slice(2)}.`,
      `${id} queries of the timed prune (counted as it ran): library ${describeOpCost(libTimed.cost)}; raw ${describeOpCost(rawTimed.cost)}.`,
    ],
  });
}
