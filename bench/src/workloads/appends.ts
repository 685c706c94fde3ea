// The append workloads. 1, 2, 3 and 10, and pg1–pg3: one awaited `record` per transaction against raw
// single-append transactions doing the same statements (workload 1 also on node:sqlite; 2 and pg2 with
// watchers on every target), and 3's 100 calls in flight at once, which group commit turns into one
// transaction. 8: 100,000 `record` calls issued in one tick, unawaited (a backlog replayed), against
// raw bounded transactions with a turn between them; the target is the longest event-loop block.
import { APPEND_BATCH_BOUNDS } from '@session-state/app';
import type { StateStore } from '@session-state/domain';

import { openLibraryStore, startOnStore, startSqlite, type Awareness } from '../library/facade.js';
import { measureBurst, msSince, runPaired, turn, type BenchSide } from '../harness/measure.js';
import { channelOf, rawPgAppender } from '../postgres/rawPg.js';
import { openPgSides, pgLatencyPair, seedPgCursors, type PgBenchContext } from '../postgres/server.js';
import { idleCursor, nodeRawAppender, openNodeRawDb, openRawDb, rawAppender, type RawRecord } from '../raw/rawDb.js';
import { latencyResult, times, type BenchContext, type WorkloadResult } from '../harness/context.js';
import { expectRecorded, humanTurn, libraryRecordOp, openRawWithPairs, rawHumanTurn, targetKey, watchPairs, watchThroughFacade, type WatchPair } from './setup.js';
import { BLOCK_LIMIT_MS, blockCheck, totalRow } from './w5Prune.js';

/** Workloads 3 and pg3: library op `i` issues `inFlight` calls of `record` at once, then awaits them together, against raw single appends, by throughput only (one library op is a burst); with `minGain`, the target on it. */
async function inFlightComparison(ctx: BenchContext, id: string, run: { n: number; warmup: number; chunk: number; inFlight: number; sessions: number }, awareness: Awareness, raw: BenchSide, minGain?: number): Promise<WorkloadResult> {
  const title = `${run.inFlight} records in flight at once (group commit)`;
  const burst = async (i: number): Promise<void> => {
    const calls = [];
    for (let k = 0; k < run.inFlight; k++) calls.push(awareness.record(humanTurn(targetKey((i + k) % run.sessions))));
    for (const result of await Promise.all(calls)) expectRecorded(result, 'library record');
  };
  const [lib, base] = await runPaired({ label: `${id} ${title}`, n: run.n, warmup: run.warmup, chunk: run.chunk, sides: [{ name: 'library', opsPerCall: run.inFlight, async: burst }, raw] }, ctx.progress);
  const gain = lib.opsPerSec / base.opsPerSec;
  const checks = minGain === undefined ? [] : [{ target: `library ≥ ${minGain}× raw single-append throughput`, measured: times(gain), met: gain >= minGain }];
  return { id, title, sides: [{ side: 'library', op: `burst of ${run.inFlight}`, ...lib }, { side: 'raw', op: 'single append tx', ...base }], checks, latencyComparable: false };
}

/** Op `i` on the raw baseline (`append`: better-sqlite3's or node:sqlite's): one append transaction on target `i mod sessions`. */
const rawRecordOp = (append: (record: ReturnType<typeof rawHumanTurn>, now: number) => number, sessions: number) => (i: number): void => void append(rawHumanTurn(targetKey(i % sessions)), Date.now());

/** `pairs`: registered before the run, the same on each side; `nodeSqlite`: a node:sqlite pair too. */
type AppendShape = { sessions: number; records: number; warmup: number; chunk: number; pairs: () => Iterable<WatchPair>; nodeSqlite?: boolean };

async function appendComparison(ctx: BenchContext, id: string, title: string, shape: AppendShape): Promise<WorkloadResult> {
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const awareness = await startSqlite(ctx.tempDb(`w${id}-library`));
  await watchThroughFacade(awareness, shape.pairs());
  const raw = openRawWithPairs(ctx.tempDb(`w${id}-raw`), shape.pairs());
  // The node:sqlite pair: the same ops on a facade and a raw file of its own.
  const nodeAwareness = shape.nodeSqlite === true ? await startSqlite(ctx.tempDb(`w${id}-library-node`), { driver: 'node:sqlite' }) : undefined;
  const nodeRaw = nodeAwareness !== undefined ? openNodeRawDb(ctx.tempDb(`w${id}-raw-node`)) : undefined;
  try {
    const sides: BenchSide[] = [{ name: 'library', async: libraryRecordOp(awareness, shape.sessions) }, { name: 'raw', sync: rawRecordOp(rawAppender(raw), shape.sessions) }];
    if (nodeAwareness !== undefined && nodeRaw !== undefined) {
      sides.push({ name: 'library node:sqlite', async: libraryRecordOp(nodeAwareness, shape.sessions) }, { name: 'raw node:sqlite', sync: rawRecordOp(nodeRawAppender(nodeRaw), shape.sessions) });
    }
    return latencyResult(id, title, { library: 'record', raw: 'append tx' }, await runPaired({ label: `${id} ${title}`, n: shape.records, warmup: shape.warmup, chunk: shape.chunk, sides }, ctx.progress), 1.2);
  } finally {
    await awareness.close();
    raw.client.close();
    await nodeAwareness?.close();
    nodeRaw?.client.close();
  }
}

function standardShape(ctx: BenchContext, watchers: number): AppendShape {
  const { sessions, records, warmup, chunk } = ctx.sizes;
  return { sessions, records, warmup, chunk, pairs: () => watchPairs(sessions, watchers) };
}

export const w1SingleAppend = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '1', `single record per tx, ${ctx.sizes.records} events / ${ctx.sizes.sessions} sessions`, { ...standardShape(ctx, 0), nodeSqlite: true });

export const w2FanOut = (ctx: BenchContext): Promise<WorkloadResult> =>
  appendComparison(ctx, '2', `as 1 with ${ctx.sizes.watchersPerTarget} watchers per target (cursor fan-out)`, standardShape(ctx, ctx.sizes.watchersPerTarget));

export async function w3InFlight(ctx: BenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup, chunk } = ctx.sizes;
  ctx.progress.update('3: set-up', 0, 1);
  const awareness = await startSqlite(ctx.tempDb('w3-library'));
  const raw = openRawWithPairs(ctx.tempDb('w3-raw'), []);
  try {
    return await inFlightComparison(ctx, '3', { n, warmup, chunk, inFlight, sessions }, awareness, { name: 'raw', sync: rawRecordOp(rawAppender(raw), sessions) }, 3);
  } finally {
    await awareness.close();
    raw.client.close();
  }
}

/** Workload 10: every watcher watches every one of a few targets, so each record moves `watchers` cursors. */
export async function w10FanOutScale(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { fanOutWatchers, fanOutTargets: sessions, fanOutRecords, fanOutMoves } = ctx.sizes;
  const results: WorkloadResult[] = [];
  for (const [index, watchers] of fanOutWatchers.entries()) {
    const records = Math.min(fanOutRecords, Math.max(200, Math.floor(fanOutMoves / watchers)));
    const pairs = function* (): Generator<WatchPair> {
      for (let i = 0; i < sessions; i++) for (let j = 0; j < watchers; j++) yield { watcher: `agent:fan${j}:main`, target: targetKey(i) };
    };
    const shape = { sessions, records, warmup: Math.ceil(records / 10), chunk: Math.ceil(records / 5), pairs };
    results.push(await appendComparison(ctx, `10${String.fromCharCode(97 + index)}`, `fan-out: ${watchers} watcher(s) on each of ${sessions} targets, ${records} records`, shape));
  }
  return results;
}

/** Both sides with `watchers` idle cursors per target seeded by SQL; op `i` records on target `i mod sessions`. */
async function openPgAppendSides(ctx: PgBenchContext, id: string, watchers: number) {
  const { sessions } = ctx.pg.sizes;
  ctx.progress.update(`${id}: set-up`, 0, 1);
  const cursors = [...watchPairs(sessions, watchers)].map((p) => idleCursor(p, Date.now()));
  const sides = await openPgSides(ctx, async (pool) => (watchers > 0 ? seedPgCursors(pool, cursors) : undefined));
  const rawAppend = rawPgAppender(sides.raw.pool, channelOf(sides.raw.place.schema));
  return { ...sides, library: libraryRecordOp(sides.awareness, sessions), raw: async (i: number): Promise<void> => void (await rawAppend(rawHumanTurn(targetKey(i % sessions)), Date.now())) };
}

async function pgAppendComparison(ctx: PgBenchContext, id: string, title: string, watchers: number): Promise<WorkloadResult> {
  const { records: n, warmup } = ctx.pg.sizes;
  const sides = await openPgAppendSides(ctx, id, watchers);
  try {
    return await pgLatencyPair(ctx, id, title, { n, warmup }, { library: 'record', raw: 'append tx' }, sides);
  } finally {
    await sides.close();
  }
}

export const pg1SingleAppend = (ctx: PgBenchContext): Promise<WorkloadResult> => pgAppendComparison(ctx, 'pg1', `single record per tx, ${ctx.pg.sizes.records} events / ${ctx.pg.sizes.sessions} sessions`, 0);

export const pg2FanOut = (ctx: PgBenchContext): Promise<WorkloadResult> =>
  pgAppendComparison(ctx, 'pg2', `as pg1 with ${ctx.pg.sizes.watchersPerTarget} watchers per target (cursor fan-out, notify)`, ctx.pg.sizes.watchersPerTarget);

export async function pg3InFlight(ctx: PgBenchContext): Promise<WorkloadResult> {
  const { inFlight, sessions, records: n, warmup } = ctx.pg.sizes;
  const sides = await openPgAppendSides(ctx, 'pg3', 0);
  try {
    // A whole number of bursts per chunk: a library call covers `inFlight` op indexes.
    const chunk = Math.ceil(ctx.pg.sizes.chunk / inFlight) * inFlight;
    return await inFlightComparison(ctx, 'pg3', { n, warmup, chunk, inFlight, sessions }, sides.awareness, { name: 'raw', async: sides.raw });
  } finally {
    await sides.close();
  }
}

function spread(ms: readonly number[]): { max: number; median: number; over: number; count: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { max: sorted[sorted.length - 1] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, over: sorted.filter((x) => x > BLOCK_LIMIT_MS).length, count: sorted.length };
}

export async function w8Burst(ctx: BenchContext): Promise<WorkloadResult> {
  const n = ctx.sizes.burst;
  const sessions = ctx.sizes.sessions;
  const title = `${n.toLocaleString('en-US')} records issued in one tick, unawaited`;
  ctx.progress.update(`8 ${title}: library`, 0, 2);
  const libTxMs: number[] = [];
  // Room for the whole burst: no prune starts inside the measured run.
  const store = openLibraryStore(ctx.tempDb('w8-library'));
  // Every append call (the whole SQLite transaction) timed.
  const append: StateStore['append'] = (batch) => {
    const t0 = process.hrtime.bigint();
    const outcomes = store.append(batch);
    libTxMs.push(msSince(t0));
    return outcomes;
  };
  const awareness = await startOnStore({ ...store, append }, { maxRows: 2 * n });
  const lib = await measureBurst(() => Promise.all(Array.from({ length: n }, (_, i) => awareness.record(humanTurn(targetKey(i % sessions)))))).finally(() => awareness.close());
  let previous = 0;
  for (const result of lib.result) {
    expectRecorded(result, 'library burst');
    const sequence = result.ok && 'event' in result ? result.event.sequence : 0;
    if (sequence <= previous) throw new Error(`library burst: sequence ${sequence} after ${previous}, not in call order`);
    previous = sequence;
  }

  ctx.progress.update(`8 ${title}: raw`, 1, 2);
  const raw = openRawDb(ctx.tempDb('w8-raw'));
  const perTx = APPEND_BATCH_BOUNDS.maxRequests;
  const rawTxMs: number[] = [];
  const rawAppend = rawAppender(raw);
  // Nested in this transaction, each append runs as a savepoint, as in the store's batch.
  const appendMany = raw.client.transaction((records: readonly RawRecord[], now: number) => {
    for (const record of records) rawAppend(record, now);
  });
  const base = await measureBurst(async () => {
    const records = Array.from({ length: n }, (_, i) => rawHumanTurn(targetKey(i % sessions)));
    await Promise.resolve();
    for (let from = 0; from < n; from += perTx) {
      if (from > 0) await turn();
      const t0 = process.hrtime.bigint();
      appendMany.immediate(records.slice(from, from + perTx), Date.now());
      rawTxMs.push(msSince(t0));
    }
    return n;
  }).finally(() => raw.client.close());

  const [libTx, rawTx] = [spread(libTxMs), spread(rawTxMs)];
  return {
    id: '8',
    title,
    sides: [totalRow('library', 'record × n, unawaited (ops/s)', n, lib), totalRow('raw', `${perTx} appends per tx (ops/s)`, n, base)],
    checks: [
      blockCheck(lib, base, ' from the appends'),
      {
        target: `library: no append transaction above ${BLOCK_LIMIT_MS} ms`,
        measured: `${libTx.max.toFixed(1)} ms longest of ${libTx.count}, ${libTx.over} above (raw ${rawTx.max.toFixed(1)} ms longest of ${rawTx.count}, ${rawTx.over} above)`,
        met: libTx.max <= BLOCK_LIMIT_MS,
      },
    ],
    latencyComparable: false,
    notes: [
      `8: the caller's own loop issuing the calls took ${lib.issueMs.toFixed(0)} ms (raw: building the inputs, ${base.issueMs.toFixed(0)} ms); ` +
        `after it, in the issuing turn ${lib.issuingTurnExtraMs.toFixed(1)} ms (raw ${base.issuingTurnExtraMs.toFixed(1)} ms), the longest later turn ${lib.maxBlockAfterMs.toFixed(1)} ms (raw ${base.maxBlockAfterMs.toFixed(1)} ms); ` +
        `median append transaction ${libTx.median.toFixed(1)} ms (raw ${rawTx.median.toFixed(1)} ms).`,
    ],
  };
}
