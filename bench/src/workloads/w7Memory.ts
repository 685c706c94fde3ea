// Workload 7: the memory store behind the same facade on workloads 1, 2 and 4, in absolute
// figures (there is no raw baseline for a Map).
import { startMemory } from '../library/facade.js';
import { runPaired } from '../harness/measure.js';
import type { BenchContext, SideResult, WorkloadResult } from '../harness/context.js';
import type { SideStats } from '../harness/stats.js';
import { libraryRecordOp, watchThroughFacade } from './appendSetup.js';
import { libraryReadOps, seedMemoryLog } from './w4StatusReads.js';

const TARGET = 1_000_000;

export async function w7Memory(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { sizes } = ctx;
  const n = sizes.memoryRecords;
  const one = async (label: string, op: (i: number) => Promise<void>, count: number): Promise<SideStats> => {
    const stats = await runPaired(
      { label, n: count, warmup: Math.min(sizes.warmup, count / 4), chunk: Math.max(100, count / 10), sides: [{ name: 'memory', async: op }] },
      ctx.progress,
    );
    const s = stats['memory'];
    if (s === undefined) throw new Error('missing side');
    return s;
  };

  const w1 = await startMemory();
  const s1 = await one(`7.1 memory: single record, ${n} events`, libraryRecordOp(w1, sizes.sessions), n);
  await w1.close();

  const w2 = await startMemory();
  await watchThroughFacade(w2, sizes.sessions, sizes.watchersPerTarget);
  const s2 = await one(`7.2 memory: record, ${sizes.watchersPerTarget} watchers per target`, libraryRecordOp(w2, sizes.sessions), n);
  await w2.close();

  const w4 = await startMemory({ maxRows: sizes.logRows * 2 });
  ctx.progress.update('7.4 memory: seeding the log', 0, 1);
  const since = await seedMemoryLog(w4, sizes.logRows, sizes.logSessions, sizes.tailEvents);
  const reads = libraryReadOps(w4, sizes.logSessions, since, sizes.tailEvents);
  const s4a = await one('7.4a memory: tail poll', reads.tail, sizes.tailPolls);
  const s4b = await one('7.4b memory: 200-event page', reads.page, sizes.pageReads);
  await w4.close();

  const row = (op: string, s: SideStats): SideResult => ({ side: 'memory', op, ...s });
  return [
    {
      id: '7.1',
      title: `memory store: workload 1 (${n} records)`,
      sides: [row('record', s1)],
      checks: [{ target: `memory ≥ ${TARGET.toLocaleString('en-US')} records/s`, measured: `${Math.round(s1.opsPerSec).toLocaleString('en-US')}/s`, met: s1.opsPerSec >= TARGET }],
    },
    { id: '7.2', title: 'memory store: workload 2 (fan-out)', sides: [row('record', s2)], checks: [] },
    { id: '7.4a', title: 'memory store: workload 4 tail poll', sides: [row('status tail', s4a)], checks: [] },
    { id: '7.4b', title: 'memory store: workload 4 full page', sides: [row('status page', s4b)], checks: [] },
  ];
}
