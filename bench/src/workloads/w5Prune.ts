// Workloads 5 and 5m: pruning down to the row cap, the library's bounded batches against one raw
// transaction; 5m at 1,000,000 rows, with the WAL's size sampled every timer turn.
import { statSync } from 'node:fs';

import { startSqlite } from '../library/facade.js';
import { DAY_MS, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { openRawDb, rawPruneAll } from '../raw/rawDb.js';
import { seedEvents, type EventSeed } from '../raw/seed.js';
import { recordInBatches, seededRawDb } from './appendSetup.js';
import { keysOf, targetKey } from './keys.js';
import { pruneResult, timePrune, totalCheck } from './pruneResult.js';

export const MAX_AGE_MS = 30 * DAY_MS;
/** A fixed clock: nothing is old (only the row cap prunes), and no background prune starts on its own. */
export const PRUNE_NOW = Date.UTC(2026, 10, 29);
/** Workload 5m's target: the WAL file never above this while the library prunes. */
const PRUNE_AT_SCALE_WAL_LIMIT_BYTES = 32 * 2 ** 20;

/** The largest size of `path`'s WAL file, sampled every timer turn until the returned function is called. */
function sampleWal(path: string): () => number {
  let max = 0;
  const sample = (): void => {
    try {
      max = Math.max(max, statSync(`${path}-wal`).size);
    } catch {
      // No WAL file yet.
    }
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
