// PostgreSQL workload 6: the restart scan over durable cursors of which some lag – the time
// `createSessionStateAwareness` takes to start over an opened PostgreSQL store (it resolves after
// the scan) against the store's scan run raw: the lagging read, then one transaction locking and
// raising them.
import type pg from 'pg';

import { startOnStore } from '../library/facade.js';
import { openPgLibraryStore } from '../library/postgres.js';
import { timeOnce, turn } from '../harness/measure.js';
import { summarise } from '../harness/stats.js';
import type { WorkloadResult } from '../harness/context.js';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/context.js';
import { openRawPool } from '../postgres/rawPg.js';
import { rawPgRestartScan } from '../postgres/rawRestartScan.js';
import { costNote, measureOpCost, mergeOpCosts, type OpCost } from '../postgres/opCost.js';
import { createStoreSchema, seedPgCursors } from '../postgres/seed.js';
import { cursorRows } from './w6RestartScan.js';

/** Puts the lagging rows back to their pre-scan state and vacuums the dead rows away (untimed). */
async function resetLagging(pool: pg.Pool): Promise<void> {
  await pool.query('UPDATE cursors SET notified = 150 WHERE material > acked');
  await pool.query('VACUUM ANALYZE cursors');
}

export async function pg6RestartScan(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  // Smaller than SQLite's workload 6 (one round trip per lagging cursor): the title says so.
  const title = `restart scan, ${sizes.cursors} cursors / ${sizes.lagging} lagging (6: ${ctx.sizes.cursors} / ${ctx.sizes.lagging})`;
  const now = Date.now();

  // One schema per side, seeded once; each scan starts from the same rows (reset, not timed).
  ctx.progress.update(`pg6 ${title}: seeding`, 0, 1);
  const libPlace = freshPlace(ctx);
  await (await openPgLibraryStore(libPlace)).close();
  const libSeeder = openRawPool(libPlace.url, libPlace.schema, 1);
  await seedPgCursors(libSeeder, cursorRows(sizes.cursors, sizes.lagging, now));
  const rawPlace = freshPlace(ctx);
  await createStoreSchema(rawPlace.url, rawPlace.schema);
  const rawSeeder = openRawPool(rawPlace.url, rawPlace.schema, 1);
  await seedPgCursors(rawSeeder, cursorRows(sizes.cursors, sizes.lagging, now));

  // A scan made ready (lagging rows reset, store or pool opened: untimed), then run (timed), then checked and closed.
  interface Scan {
    run(): Promise<unknown>;
    finish(): Promise<void>;
  }
  const libScan = async (): Promise<Scan> => {
    await resetLagging(libSeeder);
    // Opening the store (pool, migration check) is not timed: a restart's scan is.
    const store = await openPgLibraryStore(libPlace);
    let started: Awaited<ReturnType<typeof startOnStore>> | undefined;
    return {
      run: async () => (started = await startOnStore(store)),
      finish: async () => {
        if (started === undefined) {
          await store.close();
          throw new Error('the facade did not start');
        }
        const requeued = started.pending('agent:w0:main').length;
        await started.close();
        if (requeued !== 1) throw new Error('library restart scan did not re-queue the lagging notice');
      },
    };
  };
  const rawScan = async (): Promise<Scan> => {
    await resetLagging(rawSeeder);
    // A restart opens a new pool; one connection is made before the clock starts, as the
    // library's open leaves the connection its migration check used in its pool.
    const pool = openRawPool(rawPlace.url, rawPlace.schema, PG_POOL_SIZE);
    (await pool.connect()).release();
    let found = 0;
    return {
      run: async () => (found = await rawPgRestartScan(pool, Date.now())),
      finish: async () => {
        await pool.end();
        if (found !== sizes.lagging) throw new Error(`raw scan found ${found} lagging cursors, expected ${sizes.lagging}`);
      },
    };
  };
  /** Runs a scan under `measure`; the scan is closed whatever happens. */
  const once = async <T>(open: () => Promise<Scan>, measure: (run: () => Promise<unknown>) => Promise<T>): Promise<T> => {
    const scan = await open();
    let out: T;
    try {
      out = await measure(() => scan.run());
    } catch (e) {
      await scan.finish().catch(() => undefined);
      throw e;
    }
    await scan.finish();
    return out;
  };
  const timed = (open: () => Promise<Scan>): Promise<number> => once(open, timeOnce);
  const costed = (open: () => Promise<Scan>): Promise<OpCost> => once(open, (run) => measureOpCost(1, run));

  const libSamples: number[] = [];
  const rawSamples: number[] = [];
  let notes: string[] = [];
  try {
    for (let r = 0; r < sizes.scans; r++) {
      // Alternate which side goes first so a noisy neighbour does not always hit the same side.
      const order = r % 2 === 0 ? ['library', 'raw'] : ['raw', 'library'];
      for (const side of order) {
        ctx.progress.update(`pg6 ${title}: ${side} scan`, r, sizes.scans);
        if (side === 'library') libSamples.push(await timed(libScan));
        else rawSamples.push(await timed(rawScan));
        await turn();
      }
    }
    // Library, raw, raw, library: a load change during the pass hits both sides alike.
    const lib0 = await costed(libScan);
    const raw0 = await costed(rawScan);
    const raw1 = await costed(rawScan);
    const lib1 = await costed(libScan);
    notes = [
      `pg6: ${sizes.scans} scans per side on one seeded schema each (lagging rows reset and vacuumed between scans, untimed); ops/s is scans per second; smaller than SQLite's workload 6 (${sizes.cursors} cursors, not ${ctx.sizes.cursors}).`,
      costNote('pg6', 'scan', { library: mergeOpCosts(lib0, lib1), raw: mergeOpCosts(raw0, raw1) }),
    ];
  } finally {
    await libSeeder.end();
    await rawSeeder.end();
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    id: 'pg6',
    title,
    sides: [
      { side: 'library', op: 'createSessionStateAwareness', ...summarise(libSamples, sum(libSamples)) },
      { side: 'raw', op: 'select lagging + lock + one update', ...summarise(rawSamples, sum(rawSamples)) },
    ],
    checks: [],
    notes,
  };
}
