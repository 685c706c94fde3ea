// Workload 5m (full run only, or `--only 5m`): pruning 1,000,000 rows beyond a 50,000-row cap
// (issue 17, item 1) – the total time against one raw DELETE transaction, the longest block of
// the event loop, and the largest the WAL file grew while the library pruned.
import { statSync } from 'node:fs';

import { measureBlocking } from '../harness/loopBlock.js';
import { ratio, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openLibraryStore, startOnStore } from '../library/facade.js';
import { rawPruneAll } from '../raw/prune.js';
import { openRawDb } from '../raw/rawDb.js';
import { openSeedConnection, seedEvents, type EventSeed } from '../raw/seed.js';
import { targetKey } from './keys.js';
import { pruneResult } from './pruneResult.js';

const DAY = 24 * 60 * 60 * 1000;
const MAX_AGE_MS = 30 * DAY;

/** Target: the library's whole prune takes at most this many times raw's one transaction. */
export const PRUNE_AT_SCALE_TOTAL_LIMIT = 3;

/**
 * Target: the WAL file never grows beyond this while the library prunes. The store checkpoints
 * beside its batches and waits for the checkpoints once the WAL holds about WAL_ROWS_BEFORE_WAIT
 * pages (16 MB), so SQLite starts it over from the beginning at about that size plus one worker
 * batch (10,000 events: about 6 MB at 1,000 sessions).
 */
export const PRUNE_AT_SCALE_WAL_LIMIT_BYTES = 32 * 2 ** 20;

/** Samples the size of `path`'s WAL file on every timer turn until stopped; returns the largest seen. */
function sampleWal(path: string): () => number {
  let max = 0;
  const sample = (): void => {
    try {
      max = Math.max(max, statSync(`${path}-wal`).size);
    } catch {
      // No WAL file at this instant (not yet created): nothing to record.
    }
  };
  const timer = setInterval(sample, 1);
  return () => {
    clearInterval(timer);
    sample();
    return max;
  };
}

export async function w5mPruneAtScale(ctx: BenchContext): Promise<WorkloadResult> {
  const { pruneAtScaleCap: cap, pruneAtScaleExcess: excess, sessions } = ctx.sizes;
  const title = `prune ${excess} rows beyond the ${cap}-row cap`;
  // A fixed clock: nothing is old (only the row cap prunes), and no hourly background prune starts.
  const now = Date.UTC(2026, 10, 29);
  const seed: EventSeed = { count: cap + excess, sessionKeys: Array.from({ length: sessions }, (_, i) => targetKey(i)), appendedAt: now };

  // --- library: the log seeded by SQL beside the store (untimed), pruned by prune() ---
  ctx.progress.update(`5m ${title}: seeding library`, 0, 2);
  const libPath = ctx.tempDb('w5m-library');
  const store = openLibraryStore(libPath);
  const awareness = await startOnStore(store, { fixedNow: now, maxRows: cap, maxAgeMs: MAX_AGE_MS });
  // The facade's start-up prune of the empty log finishes before the seed.
  await awareness.prune();
  const seeder = openSeedConnection(libPath);
  seedEvents(seeder, seed);
  seeder.pragma('wal_checkpoint(TRUNCATE)');
  seeder.close();
  ctx.progress.update(`5m ${title}: library prune()`, 1, 2);
  const walMax = sampleWal(libPath);
  const lib = await measureBlocking(() => awareness.prune());
  const libWalBytes = walMax();
  await awareness.close();

  // --- raw: the same rows, one transaction deleting everything beyond the cap ---
  ctx.progress.update(`5m ${title}: raw DELETE`, 1, 2);
  const rawPath = ctx.tempDb('w5m-raw');
  const raw = openRawDb(rawPath);
  seedEvents(raw.client, seed);
  raw.client.pragma('wal_checkpoint(TRUNCATE)');
  const rawWalMax = sampleWal(rawPath);
  const base = await measureBlocking(() => rawPruneAll(raw, now, MAX_AGE_MS, cap));
  const rawWalBytes = rawWalMax();
  raw.client.close();

  const totalRatio = ratio(lib.totalMs, base.totalMs);
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  const result = pruneResult({
    id: '5m',
    title,
    excess,
    library: { op: 'prune() (rows/s)', totalMs: lib.totalMs, maxBlockMs: lib.maxBlockMs, deleted: lib.result.eventsDeleted },
    raw: { op: 'one DELETE tx (rows/s)', totalMs: base.totalMs, maxBlockMs: base.maxBlockMs, deleted: base.result },
    notes: [`5m: full run only (or --only 5m); both logs seeded by SQL (untimed), ${sessions} sessions; the WAL sampled every timer turn.`],
  });
  return {
    ...result,
    checks: [
      ...result.checks,
      {
        target: `library: total ≤ ${PRUNE_AT_SCALE_TOTAL_LIMIT}× raw's one DELETE transaction`,
        measured: `${times(totalRatio)} (${lib.totalMs.toFixed(0)} ms against ${base.totalMs.toFixed(0)} ms)`,
        met: totalRatio <= PRUNE_AT_SCALE_TOTAL_LIMIT,
      },
      {
        target: `library: WAL never above ${mb(PRUNE_AT_SCALE_WAL_LIMIT_BYTES)}`,
        measured: `${mb(libWalBytes)} largest WAL (raw's one transaction: ${mb(rawWalBytes)})`,
        met: libWalBytes <= PRUNE_AT_SCALE_WAL_LIMIT_BYTES,
      },
    ],
  };
}
