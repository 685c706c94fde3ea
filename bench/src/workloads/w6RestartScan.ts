// Workloads 6 and 6L: the restart scan, timed as `createSessionStateAwareness` over an opened store
// (it resolves after the scan), against a raw scan doing the same SQL.
import { openLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { measureBlocking, summarise, timeOnce, turn } from '../harness/measure.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openRawDb, rawRestartScan } from '../raw/rawDb.js';
import { seedCursors, type CursorSeed } from '../raw/seed.js';
import { BLOCK_LIMIT_MS } from './pruneResult.js';

/** Cursor `k`: 10 targets per watcher; every (cursors / pending)-th one had a notice at 150 when material moved to 200. */
export function* cursorRows(cursors: number, pending: number, now: number): Generator<CursorSeed> {
  const every = Math.floor(cursors / pending);
  for (let k = 0; k < cursors; k++) {
    const behind = k % every === 0;
    yield { watcher: `agent:w${Math.floor(k / 10)}:main`, target: `agent:t${k % 1000}:subagent:c`, acked: 100, notified: behind ? 150 : 100, material: behind ? 200 : 100, touchedAt: now };
  }
}

/** The pre-scan state of the pending rows, restored between scans. */
export const RESET_PENDING = 'UPDATE cursors SET notified = 150 WHERE material > acked';

/** Closes a facade after its restart scan, which must have re-queued the first watcher's pending notice. */
export async function closeScanned(awareness: Awareness): Promise<void> {
  const requeued = awareness.pending('agent:w0:main').length;
  await awareness.close();
  if (requeued !== 1) throw new Error('library restart scan did not re-queue the pending notice');
}

export function expectFound(found: number, pending: number): void {
  if (found !== pending) throw new Error(`raw scan found ${found} pending cursors, expected ${pending}`);
}

/** `rounds` scans per side, alternating which side goes first (so a noisy neighbour does not always hit the same side); each side's samples, ns. */
export async function scanRounds(ctx: BenchContext, label: string, rounds: number, scan: (side: 'library' | 'raw') => Promise<number>): Promise<{ library: number[]; raw: number[] }> {
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
    const p50 = ratio(lib.p50Us, base.p50Us);
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
