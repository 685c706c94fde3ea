// Workload 7: the memory store behind the facade on workloads 1, 2 and 4, against a plain
// in-memory reference doing the same bookkeeping (raw/memoryReference.ts), in the same run.
import { startMemory } from '../library/facade.js';
import { runPaired, type SideStats } from '../harness/measure.js';
import { latencyResult, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { createMemoryReference } from '../raw/memoryReference.js';
import { libraryRecordOp, logKey, rawHumanTurn, targetKey, watchPairs, watchThroughFacade } from './setup.js';
import { libraryReadOps, rawReadOps, seedMemoryLog } from './reads.js';

/** Target: the facade over the memory store at most this many times the reference at p50. */
const MEMORY_P50_LIMIT = 2;

const referenceAppend = (ref: ReturnType<typeof createMemoryReference>, sessions: number) => async (i: number): Promise<void> => {
  await ref.append(rawHumanTurn(targetKey(i % sessions)), Date.now());
};

export async function w7Memory(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { sizes } = ctx;
  const n = sizes.memoryRecords;
  const pair = (label: string, count: number, library: (i: number) => Promise<void>, reference: (i: number) => Promise<void>): Promise<[SideStats, SideStats]> =>
    runPaired({ label, n: count, warmup: Math.min(sizes.warmup, count / 4), chunk: Math.max(100, count / 10), sides: [{ name: 'library', async: library }, { name: 'raw', async: reference }] }, ctx.progress);
  const ops = { library: 'record (memory store)', raw: 'Map reference append' };

  const a1 = await startMemory();
  const s1 = await pair(`7.1 memory: single record, ${n} events`, n, libraryRecordOp(a1, sizes.sessions), referenceAppend(createMemoryReference(), sizes.sessions));
  await a1.close();

  const a2 = await startMemory();
  await watchThroughFacade(a2, watchPairs(sizes.sessions, sizes.watchersPerTarget));
  const ref2 = createMemoryReference();
  for (const { watcher, target } of watchPairs(sizes.sessions, sizes.watchersPerTarget)) ref2.watch(watcher, target);
  const s2 = await pair(`7.2 memory: record, ${sizes.watchersPerTarget} watchers per target`, n, libraryRecordOp(a2, sizes.sessions), referenceAppend(ref2, sizes.sessions));
  await a2.close();

  const a4 = await startMemory({ maxRows: sizes.logRows * 2 });
  ctx.progress.update('7.4 memory: seeding the log', 0, 1);
  const since = await seedMemoryLog(a4, sizes.logRows, sizes.logSessions, sizes.tailEvents);
  const ref4 = createMemoryReference();
  for (let i = 0; i < sizes.logRows; i++) ref4.append(rawHumanTurn(logKey(i % sizes.logSessions)), Date.now());
  const refSince = new Map([...since.keys()].map((key) => [key, ref4.read(key, 0, Number.MAX_SAFE_INTEGER).events.at(-1 - sizes.tailEvents)?.sequence ?? 0]));
  const reads = libraryReadOps(a4, sizes.logSessions, since, sizes.tailEvents);
  const refReads = rawReadOps(ref4.read, sizes.logSessions, refSince, sizes.tailEvents);
  const s4a = await pair('7.4a memory: tail poll', sizes.tailPolls, reads.tail, async (i) => refReads.tail(i));
  const s4b = await pair('7.4b memory: 200-event page', sizes.pageReads, reads.page, async (i) => refReads.page(i));
  await a4.close();

  const withTarget = latencyResult('7.1', `memory store: workload 1 (${n} records)`, ops, s1, MEMORY_P50_LIMIT);
  return [
    { ...withTarget, checks: withTarget.checks.filter((c) => c.target.includes('p50')).map((c) => ({ ...c, target: c.target.replace('raw', 'the Map reference') })) },
    latencyResult('7.2', 'memory store: workload 2 (fan-out)', ops, s2),
    latencyResult('7.4a', 'memory store: workload 4 tail poll', { library: 'status tail', raw: 'Map reference read' }, s4a),
    latencyResult('7.4b', 'memory store: workload 4 full page', { library: 'status page', raw: 'Map reference read' }, s4b),
  ];
}
