// Workloads 13 (one SQLite file) and pg7 (PostgreSQL): the cross-process notice delay, from just before
// gateway A's `record` to gateway B's `wake`, two gateways on separate store handles, B owning the
// watchers. Raw: the append transaction, heard its own way: on SQLite a second connection watching
// the folder, seeing PRAGMA data_version move at the first event after it and reading the pending
// cursors (the mechanism's floor); on PostgreSQL the `pg_notify` on a listener. The two sides run in
// alternating chunks.
import fs from 'node:fs';
import path from 'node:path';

import type { StateStore } from '@session-state/domain';

import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { createSignalWaiter, runPaired, summarise } from '../harness/measure.js';
import { openLibraryStore, openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { channelOf, openRawGateway, rawPgDrain } from '../postgres/rawPg.js';
import { costOfOps, COUNTED_OPS, describeQueries, freshPlace, freshSchema, seedPgCursors, type PgBenchContext } from '../postgres/server.js';
import { idleCursor, openRawDb, rawAppender } from '../raw/rawDb.js';
import { latency } from '../report.js';
import { expectRecorded, humanTurn, openRawWithPairs, rawHumanTurn, targetKey, watcherKey, watchPairs, watchThroughFacade } from './setup.js';

const now = (): bigint => process.hrtime.bigint();

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

/** Gateways A and B, each on its own store from `open` (one after the other: the first open creates the database); B owns and watches every target's watcher. */
async function openGatewayPair(open: () => StateStore | Promise<StateStore>, targets: number): Promise<NoticeSide> {
  const wakes = createSignalWaiter<bigint>('wake');
  const watchers = new Set([...watchPairs(targets, 1)].map((p) => p.watcher));
  const ownedByB = (key: string): boolean => watchers.has(key);
  const b: Awareness = await startOnStore(await open(), { ownsSession: ownedByB, wake: (watcher) => wakes.signal(watcher, now()) });
  let a: Awareness;
  try {
    a = await startOnStore(await open(), { ownsSession: (key) => !ownedByB(key) });
    await watchThroughFacade(b, watchPairs(targets, 1));
  } catch (e) {
    await b.close();
    throw e;
  }
  return {
    notice: (i) => timedNotice(wakes.next(pairOf(i, targets).watcher), async () => expectRecorded(await a.record(humanTurn(pairOf(i, targets).target)), 'gateway A record')),
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

/** Targets 13 and pg7: a notice recorded by one gateway wakes the owning gateway within this at p99 (the SQLite store gathers a burst of file events for a few ms before it checks). */
const LIMIT_P99_MS = 50;

/** How a workload's raw side is named: its op, how it hears its append (the p50 note), what it hears (the count of strays), and where the target holds. */
type RawNames = { readonly op: string; readonly heard: string; readonly signals: string; readonly where?: string };

/**
 * Gateways A and B on stores from `openStore` against the raw side from `openRaw`, in alternating
 * chunks, each op drained after it (untimed); the p99 check and a note of where the delay goes (p50).
 * `more` runs after the measured run, before the sides close, and gives more notes.
 */
async function noticeDelay(
  ctx: BenchContext,
  id: string,
  title: string,
  run: { targets: number; n: number; warmup: number; chunk: number },
  openStore: () => StateStore | Promise<StateStore>,
  openRaw: () => Promise<NoticeSide>,
  names: RawNames,
  more?: (library: NoticeSide, raw: NoticeSide) => Promise<string[]>,
): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const library = await openGatewayPair(openStore, run.targets);
  const raw = await openRaw().catch(async (e: unknown) => {
    await library.close();
    throw e;
  });
  try {
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
    const [lib, base] = await runPaired({ label: `${id} ${title}`, n: run.n, warmup: run.warmup, chunk: run.chunk, sides }, ctx.progress);
    const notes = (await more?.(library, raw)) ?? [];
    const p50 = (samplesNs: number[]): string => latency(summarise(samplesNs).p50Us);
    const strays = library.strays() + raw.strays();
    return {
      id,
      title,
      sides: [{ side: 'library', op: "A's record → B's wake", ...lib }, { side: 'raw', op: names.op, ...base }],
      checks: [{ target: `library: p99 notice delay ≤ ${LIMIT_P99_MS} ms${names.where ?? ''}`, measured: `p99 ${latency(lib.p99Us)}, p50 ${latency(lib.p50Us)} (raw p99 ${latency(base.p99Us)})`, met: lib.p99Us <= LIMIT_P99_MS * 1000 }],
      notes: [
        `${id}: one notice per op (a new change on a drained watcher's target; the drain after it is untimed); ops/s is 1 / mean delay.${strays > 0 ? ` ${strays} wakes or ${names.signals} came with no op waiting for them.` : ''}`,
        `${id} where the delay goes (p50): library – A's record resolves ${p50(stages.library.commit)} after the call, B's wake ${p50(stages.library.after)} after that; ` +
          `raw – the append tx resolves ${p50(stages.raw.commit)} after the call, ${names.heard} ${p50(stages.raw.after)} after that.`,
        ...notes,
      ],
    };
  } finally {
    await library.close();
    await raw.close();
  }
}

function openSqliteRawSide(file: string, targets: number): NoticeSide {
  const append = rawAppender(openRawWithPairs(file, watchPairs(targets, 1)));
  const listener = openRawDb(file, { existing: true });
  const heard = createSignalWaiter<bigint>('data_version change');
  const names = new Set([path.basename(file), `${path.basename(file)}-wal`]);
  let seen = listener.client.pragma('data_version', { simple: true });
  const watcher = fs.watch(path.dirname(file), (_event, name) => {
    if (name !== null && !names.has(name)) return;
    const version = listener.client.pragma('data_version', { simple: true });
    if (version === seen) return;
    seen = version;
    for (const cursor of listener.st.pendingCursors.all()) heard.signal(cursor.target, now());
  });
  return {
    notice: (i) => timedNotice(heard.next(pairOf(i, targets).target), async () => append(rawHumanTurn(pairOf(i, targets).target), Date.now())),
    // On the listening connection, as gateway B drains on its own: its commit moves no data_version there.
    async drain(i) {
      const { target } = pairOf(i, targets);
      for (const c of listener.st.cursorsOnTarget.all(target)) listener.st.updateCursor.run(c.material, c.material, c.material, Date.now(), c.watcher, c.target);
    },
    strays: heard.strays,
    close: async () => {
      watcher.close();
      listener.client.close();
    },
  };
}

async function openPgRawSide(ctx: PgBenchContext, targets: number): Promise<NoticeSide> {
  const { place, pool } = await freshSchema(ctx);
  const notifications = createSignalWaiter<bigint>('notification');
  const gateway = await seedPgCursors(pool, [...watchPairs(targets, 1)].map((p) => idleCursor(p, Date.now())))
    .then(() => openRawGateway(place.url, pool, channelOf(place.schema), (target) => notifications.signal(target, now())))
    .catch(async (e: unknown) => {
      await pool.end();
      throw e;
    });
  return {
    notice: (i) => timedNotice(notifications.next(pairOf(i, targets).target), () => gateway.append(rawHumanTurn(pairOf(i, targets).target), Date.now())),
    async drain(i) {
      const { watcher, target } = pairOf(i, targets);
      const drained = await rawPgDrain(pool, watcher, [target], Date.now());
      if (drained !== 1) throw new Error(`raw drain found ${drained} notices, expected 1`);
    },
    strays: () => notifications.strays(),
    close: gateway.close,
  };
}

export async function w13NoticeDelay(ctx: BenchContext): Promise<WorkloadResult> {
  const { sessions: targets, notices: n, noticeWarmup: warmup } = ctx.sizes;
  const file = ctx.tempDb('w13-library');
  const names = { op: 'append tx → data_version moved', heard: 'the second connection sees it', signals: 'data_version changes' };
  const title = `cross-process notice delay on one SQLite file, A's record → B's wake (${targets} watched targets)`;
  return noticeDelay(ctx, '13', title, { targets, n, warmup, chunk: 20 }, () => openLibraryStore(file), async () => openSqliteRawSide(ctx.tempDb('w13-raw'), targets), names);
}

export async function pg7NoticeDelay(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { sessions: targets, notices: n, noticeWarmup: warmup, chunk } = ctx.pg.sizes;
  const place = freshPlace(ctx);
  const names = { op: 'append tx → LISTEN notification', heard: 'the notification', signals: 'notifications', where: ' (loopback)' };
  // The queries of the delay path: ops on distinct targets, drained only after the pass.
  const queriesPerNotice = async (library: NoticeSide, raw: NoticeSide): Promise<string[]> => {
    if (COUNTED_OPS > targets) throw new Error('the cost pass needs a distinct target per op');
    const cost = await costOfOps(warmup + n, library.notice, raw.notice);
    for (let i = warmup + n; i < warmup + n + COUNTED_OPS; i++) {
      await library.drain(i);
      await raw.drain(i);
    }
    return [`pg7 per notice (a separate pass of ${cost.library.ops} per side, both gateways' queries): library ${describeQueries(cost.library)}; raw ${describeQueries(cost.raw)}.`];
  };
  const title = `cross-gateway notice delay, A's record → B's wake (${targets} watched targets)`;
  return noticeDelay(ctx, 'pg7', title, { targets, n, warmup, chunk }, () => openPgLibraryStore(place), () => openPgRawSide(ctx, targets), names, queriesPerNotice);
}
