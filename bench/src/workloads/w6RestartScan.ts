// Workload 6: the restart scan over 100,000 durable cursors of which 10,000 lag – the time
// `createSessionStateAwareness` takes to start (it resolves after the scan) against a raw scan
// doing the same SQL (select the lagging rows, set notified = material).
import type Database from 'better-sqlite3';

import { openLibraryStore, startOnStore } from '../library/facade.js';
import { measureBlocking } from '../harness/loopBlock.js';
import { timeOnce, turn } from '../harness/measure.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { summarise } from '../harness/stats.js';
import { rawRestartScan } from '../raw/restartScan.js';
import { openRawDb } from '../raw/rawDb.js';
import { openSeedConnection, seedCursors, type CursorSeed } from '../raw/seed.js';

/**
 * Cursor `k`: 10 targets per watcher, every (watcher, target) pair distinct; every
 * (cursors / lagging)-th one lags: a notice was pending at 150 when more changes moved material
 * to 200 before the process stopped, so the scan must raise notified to material (a write).
 */
export function* cursorRows(cursors: number, lagging: number, now: number): Generator<CursorSeed> {
  const every = Math.floor(cursors / lagging);
  for (let k = 0; k < cursors; k++) {
    const lags = k % every === 0;
    yield {
      watcher: `agent:w${Math.floor(k / 10)}:main`,
      target: `agent:t${k % 1000}:subagent:c`,
      acked: 100,
      notified: lags ? 150 : 100,
      material: lags ? 200 : 100,
      touchedAt: now,
    };
  }
}

/** Puts the lagging rows back to their pre-scan state (notified below material) between scans. */
function resetLagging(client: Database.Database): void {
  client.prepare('UPDATE cursors SET notified = 150 WHERE material > acked').run();
}

/** What one restart-scan comparison runs: its id, cursors, lagging ones, and timed scans per side. */
interface ScanShape {
  readonly id: string;
  readonly cursors: number;
  readonly lagging: number;
  readonly scans: number;
}

export function w6RestartScan(ctx: BenchContext): Promise<WorkloadResult> {
  return restartScanComparison(ctx, { id: '6', cursors: ctx.sizes.cursors, lagging: ctx.sizes.lagging, scans: ctx.sizes.scans });
}

/** Workload 6L (`--large` only): the restart scan at 1,000,000 cursors, with the longest event-loop block of the library's start. */
export async function w6LargeRestartScan(ctx: BenchContext): Promise<WorkloadResult[]> {
  if (!ctx.large) return [];
  return [await restartScanComparison(ctx, { id: '6L', cursors: 1_000_000, lagging: 100_000, scans: 3 })];
}

async function restartScanComparison(ctx: BenchContext, shape: ScanShape): Promise<WorkloadResult> {
  const sizes = shape;
  const title = `restart scan, ${sizes.cursors} cursors / ${sizes.lagging} lagging`;
  const now = Date.now();

  // One file per side, seeded once; each scan starts from the same rows (reset, not timed).
  ctx.progress.update(`${shape.id} ${title}: seeding`, 0, 1);
  const libPath = ctx.tempDb(`w${shape.id}-library`);
  await openLibraryStore(libPath).close();
  const seeder = openSeedConnection(libPath);
  seedCursors(seeder, cursorRows(sizes.cursors, sizes.lagging, now));
  const rawPath = ctx.tempDb(`w${shape.id}-raw`);
  const rawSeeder = openRawDb(rawPath);
  seedCursors(rawSeeder.client, cursorRows(sizes.cursors, sizes.lagging, now));

  const libSamples: number[] = [];
  let maxBlockMs = 0;
  const rawSamples: number[] = [];
  try {
    for (let r = 0; r < sizes.scans; r++) {
      // Alternate which side goes first so a noisy neighbour does not always hit the same side.
      const order = r % 2 === 0 ? ['library', 'raw'] : ['raw', 'library'];
      for (const side of order) {
        ctx.progress.update(`${shape.id} ${title}: ${side} scan`, r, sizes.scans);
        if (side === 'library') {
          resetLagging(seeder);
          const store = openLibraryStore(libPath);
          let started: Awaited<ReturnType<typeof startOnStore>> | undefined;
          const measured = await measureBlocking(async () => (started = await startOnStore(store)));
          libSamples.push(measured.totalMs * 1e6);
          maxBlockMs = Math.max(maxBlockMs, measured.maxBlockMs);
          if (started === undefined) throw new Error('the facade did not start');
          if (started.pending('agent:w0:main').length !== 1) throw new Error('library restart scan did not re-queue the lagging notice');
          await started.close();
        } else {
          resetLagging(rawSeeder.client);
          // A restart opens a new connection (cold page cache), as the library side does; untimed.
          const raw = openRawDb(rawPath, { existing: true });
          let found = 0;
          rawSamples.push(await timeOnce(() => (found = rawRestartScan(raw, Date.now()))));
          raw.client.close();
          if (found !== sizes.lagging) throw new Error(`raw scan found ${found} lagging cursors, expected ${sizes.lagging}`);
        }
        await turn();
      }
    }
  } finally {
    seeder.close();
    rawSeeder.client.close();
  }
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const lib = summarise(libSamples, sum(libSamples));
  const base = summarise(rawSamples, sum(rawSamples));
  const p50 = ratio(lib.p50Us, base.p50Us);
  return {
    id: shape.id,
    title,
    sides: [
      { side: 'library', op: 'createSessionStateAwareness', ...lib, maxBlockMs },
      { side: 'raw', op: 'select lagging + update', ...base },
    ],
    checks: [
      { target: 'library ≤ 1.5× raw (p50 of scans)', measured: times(p50), met: p50 <= 1.5 },
      { target: 'library: no event-loop block above 20 ms during start-up', measured: `${maxBlockMs.toFixed(1)} ms max block`, met: maxBlockMs <= 20 },
    ],
    notes: [`${shape.id}: ${sizes.scans} scans per side on one seeded file each (lagging rows reset between scans, untimed); ops/s is scans per second; the library's max block is over its scans (measured at 1 ms resolution).`],
  };
}
