// Workload 5: pruning 50,000 rows down to the row cap – the total time, and the longest single
// block of the event loop – the library's bounded batches against one big raw DELETE.
import { startSqlite } from '../library/facade.js';
import { measureBlocking } from '../harness/loopBlock.js';
import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { rawPruneAll } from '../raw/prune.js';
import { openRawDb } from '../raw/rawDb.js';
import { seedEvents } from '../raw/seed.js';
import { expectRecorded, humanTurn, targetKey } from './keys.js';
import { pruneResult } from './pruneResult.js';

const DAY = 24 * 60 * 60 * 1000;

export async function w5Prune(ctx: BenchContext): Promise<WorkloadResult> {
  const { sizes } = ctx;
  const rows = sizes.pruneCap + sizes.pruneExcess;
  const title = `prune ${sizes.pruneExcess} rows down to the ${sizes.pruneCap}-row cap`;
  // A fixed clock: nothing is old, and no hourly background prune starts while seeding.
  const now = Date.UTC(2026, 10, 29);

  // --- library: seeded through record (group commit, 1,000 in flight), pruned by prune() ---
  const awareness = await startSqlite(ctx.tempDb('w5-library'), { fixedNow: now, maxRows: sizes.pruneCap, maxAgeMs: 30 * DAY });
  const batch = 1000;
  for (let from = 0; from < rows; from += batch) {
    ctx.progress.update(`5 ${title}: seeding library`, from, rows);
    const calls = [];
    for (let i = from; i < Math.min(rows, from + batch); i++) calls.push(awareness.record(humanTurn(targetKey(i % sizes.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library seed');
  }
  ctx.progress.update(`5 ${title}: library prune()`, 0, 1);
  const lib = await measureBlocking(() => awareness.prune());
  await awareness.close();

  // --- raw: the same rows, one transaction deleting everything beyond the cap --------------
  ctx.progress.update(`5 ${title}: raw DELETE`, 0, 1);
  const raw = openRawDb(ctx.tempDb('w5-raw'));
  seedEvents(raw.client, { count: rows, sessionKeys: Array.from({ length: sizes.sessions }, (_, i) => targetKey(i)), appendedAt: now });
  const base = await measureBlocking(() => rawPruneAll(raw, now, 30 * DAY, sizes.pruneCap));
  raw.client.close();

  return pruneResult({
    id: '5',
    title,
    excess: sizes.pruneExcess,
    library: { op: 'prune() (rows/s)', totalMs: lib.totalMs, maxBlockMs: lib.maxBlockMs, deleted: lib.result.eventsDeleted },
    raw: { op: 'one DELETE tx (rows/s)', totalMs: base.totalMs, maxBlockMs: base.maxBlockMs, deleted: base.result },
  });
}
