// What the cross-process notice delay workloads share (pg7 on PostgreSQL, 12 on one SQLite file): two
// gateways on separate store handles, B owning the watchers, timed from just before A's `record` to
// B's `wake`; a raw side that hears the commit its own way; the two run in alternating chunks.
import type { StateStore } from '@session-state/domain';

import type { WorkloadResult } from '../harness/context.js';
import { runPaired, summarise, type SideStats } from '../harness/measure.js';
import type { Progress } from '../harness/progress.js';
import { startOnStore, type Awareness } from '../library/facade.js';
import { latency } from '../report.js';
import { watchPairs, watchThroughFacade } from './appendSetup.js';
import { expectRecorded, humanTurn, targetKey, watcherKey } from './keys.js';

/** An op whose wake or notification has not come by then fails the workload. */
export const HEARD_TIMEOUT_MS = 10_000;

const now = (): bigint => process.hrtime.bigint();

/** Waits for what a callback reports (a facade's `wake`, a notification). `next(key, timeoutMs)`: the hrtime (ns) of the next `signal(key)`, rejected after `timeoutMs` without one; `strays()`: signals that came with nobody waiting for their key. */
export function createSignalWaiter(what: string) {
  const waiting = new Map<string, { resolve: (at: bigint) => void; timer: NodeJS.Timeout }>();
  let strays = 0;
  return {
    next: (key: string, timeoutMs: number) =>
      new Promise<bigint>((resolve, reject) => {
        if (waiting.has(key)) throw new Error(`already waiting for a ${what} for ${key}`);
        const timer = setTimeout(() => {
          waiting.delete(key);
          reject(new Error(`no ${what} for ${key} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(key, { resolve, timer });
      }),
    signal(key: string): void {
      const at = process.hrtime.bigint();
      const waiter = waiting.get(key);
      if (waiter === undefined) {
        strays += 1;
        return;
      }
      waiting.delete(key);
      clearTimeout(waiter.timer);
      waiter.resolve(at);
    },
    strays: () => strays,
  };
}

export interface NoticeSide {
  /** Records on op `i`'s target; ns from the call to the commit and to its watcher hearing of it. */
  notice(i: number): Promise<{ committedNs: number; heardNs: number }>;
  /** Drains op `i`'s watcher (untimed), so the next op on its target is one fresh notice again. */
  drain(i: number): Promise<void>;
  strays(): number;
  close(): Promise<void>;
}

export const pairOf = (i: number, targets: number) => ({ watcher: watcherKey(i % targets, 0, targets, 1), target: targetKey(i % targets) });

/** Times `commit()` from the call to its resolution and to `heard`. */
export async function timedNotice(heard: Promise<bigint>, commit: () => Promise<unknown>): Promise<{ committedNs: number; heardNs: number }> {
  const t0 = now();
  const [c, h] = await Promise.all([commit().then(() => now()), heard]);
  return { committedNs: Number(c - t0), heardNs: Number(h - t0) };
}

/** Gateways A and B, each on its own store from `open` (one after the other: the first open creates the database); B owns and watches every target's watcher. */
export async function openGatewayPair(open: () => StateStore | Promise<StateStore>, targets: number): Promise<NoticeSide> {
  const wakes = createSignalWaiter('wake');
  const watchers = new Set([...watchPairs(targets, 1)].map((p) => p.watcher));
  const ownedByB = (key: string): boolean => watchers.has(key);
  const b: Awareness = await startOnStore(await open(), { ownsSession: ownedByB, wake: (watcher) => wakes.signal(watcher) });
  let a: Awareness;
  try {
    a = await startOnStore(await open(), { ownsSession: (key) => !ownedByB(key) });
    await watchThroughFacade(b, watchPairs(targets, 1));
  } catch (e) {
    await b.close();
    throw e;
  }
  return {
    notice: (i) => timedNotice(wakes.next(pairOf(i, targets).watcher, HEARD_TIMEOUT_MS), async () => expectRecorded(await a.record(humanTurn(pairOf(i, targets).target)), 'gateway A record')),
    async drain(i) {
      const drained = await b.drain(pairOf(i, targets).watcher);
      if (drained.length !== 1) throw new Error(`gateway B drained ${drained.length} notices, expected 1`);
    },
    strays: () => wakes.strays(),
    close: async () => {
      await a.close();
      await b.close();
    },
  };
}

type Run = { readonly label: string; readonly n: number; readonly warmup: number; readonly chunk: number };

/** Both sides in alternating chunks, each op drained after it; the stats, and a note of where the delay goes (p50); `heard`: how the raw side hears its append. */
export async function runNoticeSides(run: Run, library: NoticeSide, raw: NoticeSide, heard: string, progress: Progress): Promise<NoticeStats> {
  const stages = { library: { commit: [] as number[], after: [] as number[] }, raw: { commit: [] as number[], after: [] as number[] } };
  const timed = (name: 'library' | 'raw', side: NoticeSide) => async (i: number): Promise<number> => {
    const { committedNs, heardNs } = await side.notice(i);
    if (i >= run.warmup) {
      stages[name].commit.push(committedNs);
      stages[name].after.push(heardNs - committedNs);
    }
    await side.drain(i);
    return heardNs;
  };
  const sides = [{ name: 'library', timed: timed('library', library) }, { name: 'raw', timed: timed('raw', raw) }] as const;
  const [lib, base] = await runPaired({ ...run, sides }, progress);
  const p50 = (samplesNs: number[]): string => latency(summarise(samplesNs).p50Us);
  const where = `library – A's record resolves ${p50(stages.library.commit)} after the call, B's wake ${p50(stages.library.after)} after that; raw – the append tx resolves ${p50(stages.raw.commit)} after the call, ${heard} ${p50(stages.raw.after)} after that`;
  return { lib, base, stages: where };
}

type NoticeStats = { readonly lib: SideStats; readonly base: SideStats; readonly stages: string };

/** Targets 13 and pg7: a notice recorded by one gateway wakes the owning gateway within this at p99 (the SQLite store gathers a burst of file events for a few ms before it checks). */
const LIMIT_P99_MS = 50;

/** Workloads 13 and pg7's result; `raw.op` names the raw op, `raw.signals` what it hears (for the count of strays). */
export function noticeResult(id: string, title: string, { lib, base, stages }: NoticeStats, raw: { op: string; signals: string; where?: string }, strays: number, notes: readonly string[] = []): WorkloadResult {
  return {
    id,
    title,
    sides: [{ side: 'library', op: "A's record → B's wake", ...lib }, { side: 'raw', op: raw.op, ...base }],
    checks: [{ target: `library: p99 notice delay ≤ ${LIMIT_P99_MS} ms${raw.where ?? ''}`, measured: `p99 ${latency(lib.p99Us)}, p50 ${latency(lib.p50Us)} (raw p99 ${latency(base.p99Us)})`, met: lib.p99Us <= LIMIT_P99_MS * 1000 }],
    notes: [
      `${id}: one notice per op (a new change on a drained watcher's target; the drain after it is untimed); ops/s is 1 / mean delay.${strays > 0 ? ` ${strays} wakes or ${raw.signals} came with no op waiting for them.` : ''}`,
      `${id} where the delay goes (p50): ${stages}.`,
      ...notes,
    ],
  };
}
