// Workload 7: the memory store behind the facade on workloads 1, 2 and 4, against a plain in-memory
// reference doing the same bookkeeping of a `record` and a `status` read (a Map of logs, a Map of
// cursors per target), with no facade, in the same run.
import { startMemory } from '../library/facade.js';
import { runPaired, type SideStats } from '../harness/measure.js';
import { latencyResult, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import type { RawRecord } from '../raw/rawDb.js';
import { libraryRecordOp, logKey, rawHumanTurn, targetKey, watchPairs, watchThroughFacade } from './setup.js';
import { libraryReadOps, rawReadOps, seedMemoryLog } from './reads.js';

type RefEvent = Omit<RawRecord, 'notifies' | 'actorSessionKey'> & { readonly sequence: number; readonly occurredAt: string; readonly appendedAt: number };

/** `watch` makes an idle cursor at 0 for the pair, as `sent({ watch: true })` does; `read` gives at most `limit` events after `since`, the head, whether more follow and the earliest retained. */
function createMemoryReference() {
  const logs = new Map<string, RefEvent[]>();
  const cursors = new Map<string, Map<string, { acked: number; notified: number; material: number; touchedAt: number }>>();
  const journal: unknown[] = [];
  const notices = new Map<string, { readonly target: string; readonly acked: number }>();
  let sequence = 0;
  return {
    watch(watcher: string, target: string): void {
      if (!cursors.has(target)) cursors.set(target, new Map());
      cursors.get(target)?.set(watcher, { acked: 0, notified: 0, material: 0, touchedAt: Date.now() });
    },
    append(record: RawRecord, now: number): number {
      sequence += 1;
      const { sessionKey, kind, actorType, summary, payload } = record;
      const event: RefEvent = { sequence, sessionKey, kind, actorType, summary, ...(payload !== undefined ? { payload: { ...payload } } : {}), occurredAt: new Date(now).toISOString(), appendedAt: now };
      const log = logs.get(sessionKey);
      if (log === undefined) logs.set(sessionKey, [event]);
      else log.push(event);
      for (const [watcher, c] of cursors.get(sessionKey) ?? []) {
        if (!record.notifies || watcher === record.actorSessionKey) continue;
        if (c.material <= c.acked && sequence > c.acked) {
          c.notified = c.material = sequence;
          journal.push({ watcher, target: sessionKey, type: 'notice_raised', acked: c.acked, notified: sequence, material: sequence, at: now });
          notices.set(watcher, { target: sessionKey, acked: c.acked });
        } else if (sequence > c.material) c.material = sequence;
        c.touchedAt = now;
      }
      return sequence;
    },
    read(sessionKey: string, since: number, limit: number) {
      const log = logs.get(sessionKey) ?? [];
      let [lo, hi] = [0, log.length];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((log[mid]?.sequence ?? 0) <= since) lo = mid + 1;
        else hi = mid;
      }
      return { stateVersion: log[log.length - 1]?.sequence ?? 0, events: log.slice(lo, lo + limit), hasMore: log.length - lo > limit, earliestRetained: log[0]?.sequence ?? 0 };
    },
  };
}

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

  const p50 = s1[0].p50Us / s1[1].p50Us;
  return [
    { ...latencyResult('7.1', `memory store: workload 1 (${n} records)`, ops, s1), checks: [{ target: `library ≤ ${MEMORY_P50_LIMIT}× the Map reference at p50`, measured: times(p50), met: p50 <= MEMORY_P50_LIMIT }] },
    latencyResult('7.2', 'memory store: workload 2 (fan-out)', ops, s2),
    latencyResult('7.4a', 'memory store: workload 4 tail poll', { library: 'status tail', raw: 'Map reference read' }, s4a),
    latencyResult('7.4b', 'memory store: workload 4 full page', { library: 'status page', raw: 'Map reference read' }, s4b),
  ];
}
