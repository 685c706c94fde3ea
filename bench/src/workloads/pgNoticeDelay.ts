// PostgreSQL workload 7: the cross-gateway notice delay, from just before gateway A's `record` to
// gateway B's `wake`; raw: the append transaction (with `pg_notify`) to the notification on a listener.
import { openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { runPaired, summarise } from '../harness/measure.js';
import type { WorkloadResult } from '../harness/context.js';
import { latency } from '../report.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { costOfOps, COUNTED_OPS, describeQueries } from '../postgres/opCost.js';
import { channelOf, openRawGateway, rawPgDrain } from '../postgres/rawPg.js';
import { freshSchema, seedPgCursors } from '../postgres/seed.js';
import { idleCursor } from '../raw/seed.js';
import { watchPairs, watchThroughFacade } from './appendSetup.js';
import { expectRecorded, humanTurn, rawHumanTurn, targetKey, watcherKey } from './keys.js';

/** Target: a notice recorded by one gateway wakes the owning gateway within this at p99 on loopback. */
const LIMIT_P99_MS = 50;
/** An op whose wake or notification has not come by then fails the workload. */
const HEARD_TIMEOUT_MS = 10_000;

const now = (): bigint => process.hrtime.bigint();

/** Waits for what a callback reports (a facade's `wake`, a LISTEN notification). `next(key, timeoutMs)`: the hrtime (ns) of the next `signal(key)`, rejected after `timeoutMs` without one; `strays()`: signals that came with nobody waiting for their key. */
function createSignalWaiter(what: string) {
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

interface NoticeSide {
  /** Records on op `i`'s target; ns from the call to the commit and to its watcher hearing of it. */
  notice(i: number): Promise<{ committedNs: number; heardNs: number }>;
  /** Drains op `i`'s watcher (untimed), so the next op on its target is one fresh notice again. */
  drain(i: number): Promise<void>;
  strays(): number;
  close(): Promise<void>;
}

const pairOf = (i: number, targets: number) => ({ watcher: watcherKey(i % targets, 0, targets, 1), target: targetKey(i % targets) });

/** Times `commit()` from the call to its resolution and to `heard`. */
async function timedNotice(heard: Promise<bigint>, commit: () => Promise<unknown>): Promise<{ committedNs: number; heardNs: number }> {
  const t0 = now();
  const [c, h] = await Promise.all([commit().then(() => now()), heard]);
  return { committedNs: Number(c - t0), heardNs: Number(h - t0) };
}

async function openGateways(ctx: PgBenchContext, targets: number): Promise<NoticeSide> {
  const place = freshPlace(ctx);
  const wakes = createSignalWaiter('wake');
  const watchers = new Set([...watchPairs(targets, 1)].map((p) => p.watcher));
  const ownedByB = (key: string): boolean => watchers.has(key);
  // One after the other: the first open creates the schema.
  const b: Awareness = await startOnStore(await openPgLibraryStore(place), { ownsSession: ownedByB, wake: (watcher) => wakes.signal(watcher) });
  let a: Awareness;
  try {
    a = await startOnStore(await openPgLibraryStore(place), { ownsSession: (key) => !ownedByB(key) });
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

async function openRawSide(ctx: PgBenchContext, targets: number): Promise<NoticeSide> {
  const { place, pool } = await freshSchema(ctx);
  const notifications = createSignalWaiter('notification');
  const gateway = await seedPgCursors(pool, [...watchPairs(targets, 1)].map((p) => idleCursor(p, Date.now())))
    .then(() => openRawGateway(place.url, pool, channelOf(place.schema), (target) => notifications.signal(target)))
    .catch(async (e: unknown) => {
      await pool.end();
      throw e;
    });
  return {
    notice: (i) => timedNotice(notifications.next(pairOf(i, targets).target, HEARD_TIMEOUT_MS), () => gateway.append(rawHumanTurn(pairOf(i, targets).target), Date.now())),
    async drain(i) {
      const { watcher, target } = pairOf(i, targets);
      const drained = await rawPgDrain(pool, watcher, [target], Date.now());
      if (drained !== 1) throw new Error(`raw drain found ${drained} notices, expected 1`);
    },
    strays: () => notifications.strays(),
    close: gateway.close,
  };
}

export async function pg7NoticeDelay(ctx: PgBenchContext): Promise<WorkloadResult> {
  const sizes = ctx.pg.sizes;
  const targets = sizes.sessions;
  const title = `cross-gateway notice delay, A's record → B's wake (${targets} watched targets)`;
  ctx.progress.update('pg7: set-up', 0, 1);
  const library = await openGateways(ctx, targets);
  const raw = await openRawSide(ctx, targets).catch(async (e: unknown) => {
    await library.close();
    throw e;
  });
  const stages = { library: { commit: [] as number[], after: [] as number[] }, raw: { commit: [] as number[], after: [] as number[] } };
  const timed = (name: 'library' | 'raw', side: NoticeSide) => async (i: number): Promise<number> => {
    const { committedNs, heardNs } = await side.notice(i);
    if (i >= sizes.noticeWarmup) {
      stages[name].commit.push(committedNs);
      stages[name].after.push(heardNs - committedNs);
    }
    await side.drain(i);
    return heardNs;
  };
  try {
    const sides = [{ name: 'library', timed: timed('library', library) }, { name: 'raw', timed: timed('raw', raw) }] as const;
    const [lib, base] = await runPaired({ label: `pg7 ${title}`, n: sizes.notices, warmup: sizes.noticeWarmup, chunk: sizes.chunk, sides }, ctx.progress);
    // The queries of the delay path: ops on distinct targets, drained only after the pass.
    const from = sizes.noticeWarmup + sizes.notices;
    if (COUNTED_OPS > targets) throw new Error('the cost pass needs a distinct target per op');
    const cost = await costOfOps(from, library.notice, raw.notice);
    for (let i = from; i < from + COUNTED_OPS; i++) {
      await library.drain(i);
      await raw.drain(i);
    }
    const p50 = (samplesNs: number[]): string => latency(summarise(samplesNs).p50Us);
    const strays = library.strays() + raw.strays();
    return {
      id: 'pg7',
      title,
      sides: [{ side: 'library', op: "A's record → B's wake", ...lib }, { side: 'raw', op: 'append tx → LISTEN notification', ...base }],
      checks: [{ target: `library: p99 notice delay ≤ ${LIMIT_P99_MS} ms (loopback)`, measured: `p99 ${latency(lib.p99Us)}, p50 ${latency(lib.p50Us)} (raw p99 ${latency(base.p99Us)})`, met: lib.p99Us <= LIMIT_P99_MS * 1000 }],
      notes: [
        `pg7: one notice per op (a new change on a drained watcher's target; the drain after it is untimed); ops/s is 1 / mean delay.${strays > 0 ? ` ${strays} wakes or notifications came with no op waiting for them.` : ''}`,
        `pg7 where the delay goes (p50): library – A's record resolves ${p50(stages.library.commit)} after the call, B's wake ${p50(stages.library.after)} after that; raw – the append tx resolves ${p50(stages.raw.commit)} after the call, the notification ${p50(stages.raw.after)} after that.`,
        `pg7 per notice (a separate pass of ${cost.library.ops} per side, both gateways' queries): library ${describeQueries(cost.library)}; raw ${describeQueries(cost.raw)}.`,
      ],
    };
  } finally {
    await library.close();
    await raw.close();
  }
}
