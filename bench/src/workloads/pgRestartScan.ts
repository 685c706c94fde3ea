// PostgreSQL workload 6: the restart scan over durable cursors, some pending: the time
// `createSessionStateAwareness` takes over an opened store against the store's scan run raw.
import { openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { summarise, timeOnce } from '../harness/measure.js';
import type { WorkloadResult } from '../harness/context.js';
import { PG_POOL_SIZE, type PgBenchContext } from '../postgres/server.js';
import { openRawPool, rawPgRestartScan } from '../postgres/rawPg.js';
import { freshSchema, seedPgCursors } from '../postgres/seed.js';
import { closeScanned, cursorRows, expectFound, RESET_PENDING, scanRounds } from './w6RestartScan.js';

export async function pg6RestartScan(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const title = `restart scan, ${sizes.cursors} cursors / ${sizes.pending} pending (6: ${ctx.sizes.cursors} / ${ctx.sizes.pending})`;
  const now = Date.now();
  ctx.progress.update(`pg6 ${title}: seeding`, 0, 1);
  const seeded = { library: await freshSchema(ctx, 1), raw: await freshSchema(ctx, 1) };

  /** One timed scan of `side`, ns: its pending rows reset and vacuumed, then a restart (a new store or pool; untimed), the scan, and its check. */
  const once = async (side: 'library' | 'raw'): Promise<number> => {
    const { place, pool: seeder } = seeded[side];
    await seeder.query(RESET_PENDING);
    await seeder.query('VACUUM ANALYZE cursors');
    if (side === 'library') {
      const store = await openPgLibraryStore(place);
      let started: Awareness | undefined;
      try {
        return await timeOnce(async () => (started = await startOnStore(store)));
      } finally {
        await (started === undefined ? store.close() : closeScanned(started));
      }
    }
    // One connection is made before the clock starts, as the library's open leaves one.
    const pool = openRawPool(place.url, place.schema, PG_POOL_SIZE);
    (await pool.connect()).release();
    let found = 0;
    try {
      return await timeOnce(async () => (found = await rawPgRestartScan(pool, Date.now())));
    } finally {
      await pool.end();
      expectFound(found, sizes.pending);
    }
  };
  try {
    for (const { pool } of Object.values(seeded)) await seedPgCursors(pool, cursorRows(sizes.cursors, sizes.pending, now));
    const samples = await scanRounds(ctx, `pg6 ${title}`, sizes.scans, once);
    return {
      id: 'pg6',
      title,
      sides: [
        { side: 'library', op: 'createSessionStateAwareness', ...summarise(samples.library) },
        { side: 'raw', op: 'select pending + lock + one update', ...summarise(samples.raw) },
      ],
      checks: [],
    };
  } finally {
    for (const { pool } of Object.values(seeded)) await pool.end();
  }
}
