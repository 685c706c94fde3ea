// Workloads 6, 6L and pg6: the restart scan over durable cursors, some pending, timed as
// `createSessionStateAwareness` over an opened store (it resolves after the scan), against a raw scan
// doing the same SQL (on PostgreSQL the store's scan run raw).
import { openLibraryStore, openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { measureBlocking, summarise, timeOnce, turn } from '../harness/measure.js';
import { times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openRawPool, rawPgRestartScan } from '../postgres/rawPg.js';
import { freshSchema, PG_POOL_SIZE, seedPgCursors, type PgBenchContext } from '../postgres/server.js';
import { openRawDb, rawRestartScan, seedCursors, type CursorSeed } from '../raw/rawDb.js';
import { BLOCK_LIMIT_MS } from './w5Prune.js';

/** Cursor `k`: 10 targets per watcher; every (cursors / pending)-th one had a notice at 150 when material moved to 200. */
function* cursorRows(cursors: number, pending: number, now: number): Generator<CursorSeed> {
  const every = Math.floor(cursors / pending);
  for (let k = 0; k < cursors; k++) {
    const behind = k % every === 0;
    yield { watcher: `agent:w${Math.floor(k / 10)}:main`, target: `agent:t${k % 1000}:subagent:c`, acked: 100, notified: behind ? 150 : 100, material: behind ? 200 : 100, touchedAt: now };
  }
}

/** The pre-scan state of the pending rows, restored between scans. */
const RESET_PENDING = 'UPDATE cursors SET notified = 150 WHERE material > acked';

/** Closes a facade after its restart scan, which must have re-queued the first watcher's pending notice. */
async function closeScanned(awareness: Awareness): Promise<void> {
  const requeued = awareness.pending('agent:w0:main').length;
  await awareness.close();
  if (requeued !== 1) throw new Error('library restart scan did not re-queue the pending notice');
}

function expectFound(found: number, pending: number): void {
  if (found !== pending) throw new Error(`raw scan found ${found} pending cursors, expected ${pending}`);
}

/** `rounds` scans per side, alternating which side goes first (so a noisy neighbour does not always hit the same side); each side's samples, ns. */
async function scanRounds(ctx: BenchContext, label: string, rounds: number, scan: (side: 'library' | 'raw') => Promise<number>): Promise<{ library: number[]; raw: number[] }> {
  const samples = { library: [] as number[], raw: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? (['library', 'raw'] as const) : (['raw', 'library'] as const)) {
      ctx.progress.update(`${label}: ${side} scan`, r, rounds);
      samples[side].push(await scan(side));
      await turn();
    }
  }
  return samples;
}

export const w6RestartScan = (ctx: BenchContext): Promise<WorkloadResult> => restartScan(ctx, '6', ctx.sizes.cursors, ctx.sizes.pending, ctx.sizes.scans);

export const w6LargeRestartScan = async (ctx: BenchContext): Promise<WorkloadResult[]> => (ctx.large ? [await restartScan(ctx, '6L', 1_000_000, 100_000, 3)] : []);

async function restartScan(ctx: BenchContext, id: string, cursors: number, pending: number, scans: number): Promise<WorkloadResult> {
  const title = `restart scan, ${cursors} cursors / ${pending} pending`;
  const now = Date.now();
  ctx.progress.update(`${id} ${title}: seeding`, 0, 1);
  const libPath = ctx.tempDb(`w${id}-library`);
  await openLibraryStore(libPath).close();
  const seeder = openRawDb(libPath, { existing: true }).client;
  seedCursors(seeder, cursorRows(cursors, pending, now));
  const rawPath = ctx.tempDb(`w${id}-raw`);
  const rawSeeder = openRawDb(rawPath);
  seedCursors(rawSeeder.client, cursorRows(cursors, pending, now));
  let maxBlockMs = 0;
  try {
    const samples = await scanRounds(ctx, `${id} ${title}`, scans, async (side) => {
      if (side === 'library') {
        seeder.exec(RESET_PENDING);
        const store = openLibraryStore(libPath);
        const measured = await measureBlocking(() => startOnStore(store));
        maxBlockMs = Math.max(maxBlockMs, measured.maxBlockMs);
        await closeScanned(measured.result);
        return measured.totalMs * 1e6;
      }
      rawSeeder.client.exec(RESET_PENDING);
      // A restart opens a new connection (cold page cache), as the library side does; untimed.
      const raw = openRawDb(rawPath, { existing: true });
      let found = 0;
      const ns = await timeOnce(() => (found = rawRestartScan(raw, Date.now())));
      raw.client.close();
      expectFound(found, pending);
      return ns;
    });
    const lib = summarise(samples.library);
    const base = summarise(samples.raw);
    const p50 = lib.p50Us / base.p50Us;
    return {
      id,
      title,
      sides: [{ side: 'library', op: 'createSessionStateAwareness', ...lib, maxBlockMs }, { side: 'raw', op: 'select pending + update', ...base }],
      checks: [
        { target: 'library ≤ 1.5× raw (p50 of scans)', measured: times(p50), met: p50 <= 1.5 },
        { target: `library: no event-loop block above ${BLOCK_LIMIT_MS} ms during start-up`, measured: `${maxBlockMs.toFixed(1)} ms max block`, met: maxBlockMs <= BLOCK_LIMIT_MS },
      ],
    };
  } finally {
    seeder.close();
    rawSeeder.client.close();
  }
}

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
