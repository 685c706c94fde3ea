// PostgreSQL workload 8: N = 1, 2, 4 gateway processes on one schema under load (issue 17 item 2
// and 3). Each gateway records, one record at a time, on targets whose watchers the next gateway
// owns, and probes on fresh targets; owners drain on wake. Measured per N and side: aggregate
// records/s (library against raw doing the same SQL per transaction on the same connections),
// the delay from a probe's record in one process to its owner's wake (raw: to the LISTEN
// notification), and queries per notice (the owner's re-reads, and any non-owner's).
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { WorkloadResult } from '../harness/context';
import { summarise } from '../harness/stats';
import { latency } from '../report';
import { freshPlace, PG_POOL_SIZE, type PgBenchContext } from '../postgres/context';
import { ownedPairs, type GatewayReport, type GatewaySetup } from '../postgres/gatewayWorker';
import { openRawPool } from '../postgres/rawPg';
import { createStoreSchema, seedPgCursors } from '../postgres/seed';

/** Aggregate records/s of the library against raw, each N. */
const MIN_RECORDS_RATIO = 0.8;
/** The p99 of the record → owner's wake delay at N = 4, on this machine. */
const LIMIT_P99_MS_AT_4 = 10;
/** Load targets per recording gateway. */
const LOAD_TARGETS = 20;
/** Pause between one gateway's probes, so a probe is one notice among the load. */
const PROBE_GAP_MS = 15;
/** The re-read statements: the store's (pendingNotices, on targets or every pending cursor) and raw's one read. */
const REREADS = ['ss_pending_cursors_on', 'ss_pending_cursors', 'SELECT watcher,'];

interface SideRun {
  readonly records: number;
  readonly seconds: number;
  /** ns from a probe's record call (one process) to its owner's wake or notification (another). */
  readonly delaysNs: number[];
  readonly lost: number;
  readonly notices: number;
  readonly queries: Record<string, number>;
  /** Re-reads in the processes that owned no watcher a probe or load notice named: per process. */
  readonly rereadsPerProcess: number[];
}

/** Forks one worker and resolves with it once it has set up. */
function startWorker(setup: GatewaySetup): Promise<ChildProcess> {
  const child = fork(join(__dirname, '../postgres/gatewayWorker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { type: string; message?: string }) => {
      if (message.type === 'ready') resolve(child);
      else reject(new Error(`gateway ${setup.index} failed to set up: ${message.message ?? message.type}`));
    });
    child.once('exit', (code) => reject(new Error(`gateway ${setup.index} exited with ${String(code)} during set-up`)));
    child.send(setup);
  });
}

function reportOf(child: ChildProcess): Promise<GatewayReport> {
  return new Promise((resolve, reject) => {
    child.once('message', (message: GatewayReport | { type: 'error'; message: string }) => {
      if (message.type === 'report') resolve(message);
      else reject(new Error(`a gateway failed: ${message.message}`));
    });
  });
}

async function runSide(ctx: PgBenchContext, side: 'library' | 'raw', gateways: number, seconds: number): Promise<SideRun> {
  const place = freshPlace(ctx);
  await createStoreSchema(place.url, place.schema);
  const probes = Math.ceil((seconds * 1000) / PROBE_GAP_MS) + 10;
  const base = { side, url: place.url, schema: place.schema, gateways, loadTargets: LOAD_TARGETS, probes, probeGapMs: PROBE_GAP_MS, poolSize: PG_POOL_SIZE };
  // Both sides' cursors seeded by SQL (untimed), as `sent({ watch: true })` makes them: idle at head 0.
  const pool = openRawPool(place.url, place.schema, 1);
  try {
    const now = Date.now();
    const rows = [];
    for (let owner = 0; owner < gateways; owner += 1) for (const pair of ownedPairs(owner, base)) rows.push({ ...pair, acked: 0, notified: 0, material: 0, touchedAt: now });
    await seedPgCursors(pool, rows);
  } finally {
    await pool.end();
  }
  const children: ChildProcess[] = [];
  try {
    for (let index = 0; index < gateways; index += 1) children.push(await startWorker({ type: 'setup', ...base, index }));
    const reports = children.map(reportOf);
    const untilWall = performance.timeOrigin + performance.now() + 200 + seconds * 1000;
    for (const child of children) child.send({ type: 'go', untilWall });
    const done = await Promise.all(reports);
    const heard = new Map<string, number>();
    for (const report of done) for (const [probe, at] of report.probesHeard) if (!heard.has(probe)) heard.set(probe, at);
    const delaysNs: number[] = [];
    let lost = 0;
    for (const report of done) {
      for (const [probe, sentAt] of report.probesSent) {
        const at = heard.get(probe);
        if (at === undefined) lost += 1;
        else delaysNs.push((at - sentAt) * 1e6);
      }
    }
    const queries: Record<string, number> = {};
    for (const report of done) for (const [label, count] of Object.entries(report.queries)) queries[label] = (queries[label] ?? 0) + count;
    return {
      records: done.reduce((sum, report) => sum + report.records, 0),
      seconds,
      delaysNs,
      lost,
      notices: done.reduce((sum, report) => sum + report.notices, 0),
      queries,
      rereadsPerProcess: done.map((report) => REREADS.reduce((sum, label) => sum + (report.queries[label] ?? 0), 0)),
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}

const perOp = (count: number, ops: number): string => (ops > 0 ? (count / ops).toFixed(2) : '—');

export async function pg8Gateways(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const seconds = ctx.quick ? 1 : 6;
  const results: WorkloadResult[] = [];
  for (const gateways of [1, 2, 4]) {
    const id = `pg8/${gateways}`;
    ctx.progress.update(`${id}: library`, 0, 2);
    const library = await runSide(ctx, 'library', gateways, seconds);
    ctx.progress.update(`${id}: raw`, 1, 2);
    const raw = await runSide(ctx, 'raw', gateways, seconds);
    const sideOf = (run: SideRun) => {
      const stats = summarise(run.delaysNs, run.seconds * 1e9, run.records);
      return { ...stats, n: run.records };
    };
    const lib = sideOf(library);
    const base = sideOf(raw);
    const recordsRatio = lib.opsPerSec / base.opsPerSec;
    const rereads = library.rereadsPerProcess.reduce((a, b) => a + b, 0);
    // The store sends BEGIN with its first statement ('BEGIN; SELECT …'); raw sends it alone.
    const transactions = (run: SideRun): number => Object.entries(run.queries).reduce((sum, [label, count]) => sum + (label.startsWith('BEGIN') ? count : 0), 0);
    const totalQueries = (run: SideRun): number => Object.values(run.queries).reduce((a, b) => a + b, 0);
    const checks = [
      {
        target: `library: aggregate records/s ≥ ${MIN_RECORDS_RATIO}× raw (N = ${gateways})`,
        measured: `${Math.round(lib.opsPerSec)} against ${Math.round(base.opsPerSec)} records/s: ${recordsRatio.toFixed(2)}×`,
        met: recordsRatio >= MIN_RECORDS_RATIO,
      },
      {
        target: 'library: one re-read per notice, in the owner only',
        measured: `${perOp(rereads, library.notices)} re-reads per notice (${rereads} for ${library.notices} notices; by process ${library.rereadsPerProcess.join(', ')})`,
        met: gateways === 1 || rereads <= library.notices,
      },
    ];
    if (gateways === 4) {
      checks.push({
        target: `library: p99 record → owner's wake ≤ ${LIMIT_P99_MS_AT_4} ms with N = 4 (this machine)`,
        measured: `p99 ${latency(lib.p99Us)}, p50 ${latency(lib.p50Us)} (raw LISTEN p99 ${latency(base.p99Us)}, p50 ${latency(base.p50Us)})`,
        met: lib.p99Us <= LIMIT_P99_MS_AT_4 * 1000,
      });
    }
    results.push({
      id,
      title: `${gateways} gateway process${gateways > 1 ? 'es' : ''} on one schema, recording on each other's watched targets, owners draining on wake`,
      sides: [
        { side: 'library', op: "ops/s: records/s of all gateways; p50/p99: a probe's record → its owner's wake", ...lib },
        { side: 'raw', op: 'ops/s: the same SQL per transaction; p50/p99: append tx → LISTEN notification', ...base },
      ],
      checks,
      latencyComparable: false,
      notes: [
        `${id}: ${seconds} s per side, library first then raw (not interleaved: the machine is shared with other sessions, so compare the ratio within this run only). ` +
          `Each gateway records one at a time on ${LOAD_TARGETS} targets whose watchers the next gateway owns, and probes a fresh target every ${PROBE_GAP_MS} ms; ` +
          `${lib.n} library / ${base.n} raw records, ${library.delaysNs.length} / ${raw.delaysNs.length} probes heard (${library.lost} / ${raw.lost} not heard by the end).`,
        `${id} per record, all gateways: library ${perOp(totalQueries(library), library.records)} queries, ${perOp(transactions(library), library.records)} transactions (BEGIN); ` +
          `raw ${perOp(totalQueries(raw), raw.records)} queries, ${perOp(transactions(raw), raw.records)} transactions. ` +
          `Per notice: library ${perOp(rereads, library.notices)} re-reads (pendingNotices; ${library.notices} wakes), raw ${perOp(raw.rereadsPerProcess.reduce((a, b) => a + b, 0), raw.notices)} (its one read per notification naming an owned watcher).`,
      ],
    });
  }
  return results;
}
