// Workload 5: pruning 50,000 rows down to the row cap – the total time, and the longest single
// block of the event loop – the library's bounded batches against one big raw DELETE.
import { startSqlite } from '../library/facade';
import { measureBlocking } from '../harness/loopBlock';
import type { BenchContext, WorkloadResult } from '../harness/context';
import { rawPruneAll } from '../raw/prune';
import { openRawDb } from '../raw/rawDb';
import { seedEvents } from '../raw/seed';
import { expectRecorded, humanTurn, targetKey } from './keys';

const LIMIT_MS = 20;
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

  for (const [side, deleted] of [['library', lib.result.eventsDeleted], ['raw', base.result]] as const) {
    if (deleted !== sizes.pruneExcess) throw new Error(`${side} prune deleted ${deleted} events, expected ${sizes.pruneExcess}`);
  }
  const stats = (m: { totalMs: number }) => ({ n: sizes.pruneExcess, opsPerSec: (sizes.pruneExcess * 1000) / m.totalMs, p50Us: Number.NaN, p99Us: Number.NaN, totalMs: m.totalMs });
  return {
    id: '5',
    title,
    sides: [
      { side: 'library', op: 'prune() (rows/s)', ...stats(lib), maxBlockMs: lib.maxBlockMs },
      { side: 'raw', op: 'one DELETE tx (rows/s)', ...stats(base), maxBlockMs: base.maxBlockMs },
    ],
    checks: [
      {
        target: `library: no event-loop block above ${LIMIT_MS} ms`,
        measured: `${lib.maxBlockMs.toFixed(1)} ms max block (total ${lib.totalMs.toFixed(0)} ms; raw ${base.maxBlockMs.toFixed(1)} ms block)`,
        met: lib.maxBlockMs <= LIMIT_MS,
      },
    ],
  };
}
