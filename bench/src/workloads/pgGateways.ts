// PostgreSQL workload 8: N gateway processes per side on one schema (postgres/gatewayWorker.ts). Flat
// out: aggregate records/s and queries per notice; paced: a probe's record → its owner's wake.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { WorkloadResult } from '../harness/context.js';
import { summarise } from '../harness/measure.js';
import { latency } from '../report.js';
import { freshSchema, PG_POOL_SIZE, seedPgCursors, type PgBenchContext } from '../postgres/server.js';
import { ownedPairs, type GatewayGo, type GatewayReport, type GatewaySetup } from '../postgres/gatewayWorker.js';
import { idleCursor } from '../raw/rawDb.js';

/** Targets: aggregate records/s of the library against raw at each N (flat out), and p99 delay at N = 4 (paced). */
const MIN_RECORDS_RATIO = 0.8;
const LIMIT_P99_MS_AT_4 = 10;
/** The paced load as a fraction of raw's flat-out records/s at the same N; the pause between probes; the targets each gateway loads. */
const PACED_FRACTION = 0.5;
const PROBE_GAP_MS = 15;
const LOAD_TARGETS = 20;
/** The re-read statements: the store's (on targets, or every pending cursor) and raw's one read. */
const REREADS = ['ss_pending_cursors_on', 'ss_pending_cursors', 'SELECT watcher,'];
/** Rounds per phase and seconds per round; `warmUp`: seconds flat out untimed on each side first (JIT). */
const PLAN = { full: { rounds: 3, roundSeconds: 2, warmUp: 8 }, quick: { rounds: 2, roundSeconds: 0.5, warmUp: 0.5 } };

/** One phase of one side, summed over its gateways; `delaysNs` from a probe's record (one process) to its owner's wake (another). */
type SideRun = { records: number; seconds: number; delaysNs: number[]; lost: number; notices: number; queries: Record<string, number>; rereadsPerProcess: number[]; cpuUs: number };

function message<T>(child: ChildProcess, want: string, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { type: string; message?: string }) => (m.type === want ? resolve(m as T) : reject(new Error(`${what}: ${m.message ?? m.type}`))));
    child.once('exit', (code) => reject(new Error(`${what}: exited with ${String(code)}`)));
  });
}

function mergeRuns(runs: readonly SideRun[]): SideRun {
  const total = (of: (run: SideRun) => number): number => runs.reduce((sum, run) => sum + of(run), 0);
  return {
    records: total((r) => r.records),
    seconds: total((r) => r.seconds),
    delaysNs: runs.flatMap((r) => r.delaysNs),
    lost: total((r) => r.lost),
    notices: total((r) => r.notices),
    queries: runs.reduce<Record<string, number>>((into, r) => {
      for (const [label, count] of Object.entries(r.queries)) into[label] = (into[label] ?? 0) + count;
      return into;
    }, {}),
    rereadsPerProcess: (runs[0]?.rereadsPerProcess ?? []).map((_, i) => total((r) => r.rereadsPerProcess[i] ?? 0)),
    cpuUs: total((r) => r.cpuUs),
  };
}

/** Forks `gateways` workers of `side` on a fresh schema, with probes seeded for `probeSeconds` of phases. */
async function openSide(ctx: PgBenchContext, side: 'library' | 'raw', gateways: number, probeSeconds: number) {
  const { place, pool } = await freshSchema(ctx, 1);
  const probes = Math.ceil((probeSeconds * 1000) / PROBE_GAP_MS) + 20;
  const base = { side, url: place.url, schema: place.schema, gateways, loadTargets: LOAD_TARGETS, probes, probeGapMs: PROBE_GAP_MS, poolSize: PG_POOL_SIZE };
  const now = Date.now();
  await seedPgCursors(pool, Array.from({ length: gateways }, (_, owner) => [...ownedPairs(owner, base)].map((p) => idleCursor(p, now))).flat()).finally(() => pool.end());
  const children: ChildProcess[] = [];
  const kill = (): void => {
    for (const child of children) if (child.exitCode === null) child.kill();
  };
  try {
    for (let index = 0; index < gateways; index += 1) {
      const child = fork(join(import.meta.dirname, '../postgres/gatewayWorker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      children.push(child);
      const ready = message(child, 'ready', `gateway ${index} failed to set up`);
      child.send({ type: 'setup', ...base, index } satisfies GatewaySetup);
      await ready;
    }
  } catch (error) {
    kill();
    throw error;
  }
  return {
    async phase(seconds: number, recordsPerSec?: number): Promise<SideRun> {
      const reports = children.map((child) => message<GatewayReport>(child, 'report', 'a gateway failed'));
      const fromWall = performance.timeOrigin + performance.now() + 200;
      const go: GatewayGo = { type: 'go', fromWall, untilWall: fromWall + seconds * 1000, ...(recordsPerSec !== undefined ? { recordsPerSec } : {}) };
      for (const child of children) child.send(go);
      const done = await Promise.all(reports);
      const heard = new Map<string, number>();
      for (const report of done) for (const [probe, at] of report.probesHeard) if (!heard.has(probe)) heard.set(probe, at);
      const sent = done.flatMap((report) => report.probesSent);
      const delaysNs = sent.flatMap(([probe, at]) => (heard.has(probe) ? [((heard.get(probe) as number) - at) * 1e6] : []));
      // The gateways' records, notices, queries and CPU summed as rounds are; the phase's own seconds, delays and per-process re-reads.
      const summed = mergeRuns(done.map((r) => ({ ...r, seconds: 0, delaysNs: [], lost: 0, rereadsPerProcess: [] })));
      const rereadsPerProcess = done.map((r) => REREADS.reduce((sum, label) => sum + (r.queries[label] ?? 0), 0));
      return { ...summed, seconds, delaysNs, lost: sent.length - delaysNs.length, rereadsPerProcess };
    },
    async close(): Promise<void> {
      const exits = children.map((child) => (child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()))));
      for (const child of children) if (child.exitCode === null) child.send({ type: 'end' });
      const timer = setTimeout(kill, 5000);
      await Promise.all(exits);
      clearTimeout(timer);
    },
  };
}

type Runs = { library: SideRun; raw: SideRun };
type Phase = Runs & { rounds: readonly Runs[] };

/** Both sides' gateways open at once, taking turns in rounds after an untimed warm-up (a load change meets both); then, if `paced`, the same at PACED_FRACTION of raw's flat out. */
async function runInterleaved(ctx: PgBenchContext, gateways: number, plan: typeof PLAN.full, paced: boolean): Promise<{ flat: Phase; paced?: Phase; rate?: number }> {
  const probeSeconds = plan.warmUp + (paced ? 2 : 1) * plan.rounds * plan.roundSeconds;
  const raw = await openSide(ctx, 'raw', gateways, probeSeconds);
  let library: Awaited<ReturnType<typeof openSide>> | undefined;
  try {
    library = await openSide(ctx, 'library', gateways, probeSeconds);
    const sides = { raw, library };
    await raw.phase(plan.warmUp);
    await library.phase(plan.warmUp);
    const phase = async (recordsPerSec?: number): Promise<Phase> => {
      const rounds: Runs[] = [];
      for (let round = 0; round < plan.rounds; round += 1) {
        const runs: Partial<Runs> = {};
        for (const side of round % 2 === 0 ? (['raw', 'library'] as const) : (['library', 'raw'] as const)) runs[side] = await sides[side].phase(plan.roundSeconds, recordsPerSec);
        rounds.push(runs as Runs);
      }
      return { library: mergeRuns(rounds.map((k) => k.library)), raw: mergeRuns(rounds.map((k) => k.raw)), rounds };
    };
    const flat = await phase();
    if (!paced) return { flat };
    const rate = PACED_FRACTION * (flat.raw.records / flat.raw.seconds);
    return { flat, paced: await phase(rate / gateways), rate };
  } finally {
    await Promise.all([raw.close(), library?.close()]);
  }
}

/** A side's row figures: records/s over the phase, p50/p99 of the probes' delays. */
const statsOf = (run: SideRun) => summarise(run.delaysNs, run.seconds * 1e9, run.records);
const spread = (values: readonly number[], digits: number, unit: string): string => (values.length === 0 ? '—' : `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}${unit}`);
const perOp = (count: number, ops: number): string => (ops > 0 ? (count / ops).toFixed(2) : '—');
const rereadsOf = (run: SideRun): number => run.rereadsPerProcess.reduce((a, b) => a + b, 0);

/** Queries, transactions (BEGIN) and gateway CPU per record, both sides. */
function costLine(library: SideRun, raw: SideRun): string {
  const one = (name: string, run: SideRun): string => {
    const begins = Object.entries(run.queries).reduce((sum, [label, n]) => sum + (label.startsWith('BEGIN') ? n : 0), 0);
    const queries = Object.values(run.queries).reduce((a, b) => a + b, 0);
    return `${name} ${perOp(queries, run.records)} queries, ${perOp(begins, run.records)} transactions, ${perOp(run.cpuUs, run.records)} µs of gateway CPU`;
  };
  return `${one('library', library)}; ${one('raw', raw)}`;
}

export async function pg8Gateways(ctx: PgBenchContext): Promise<WorkloadResult[]> {
  const plan = ctx.quick ? PLAN.quick : PLAN.full;
  const seconds = plan.rounds * plan.roundSeconds;
  const results: WorkloadResult[] = [];
  // --quick runs N = 4 alone, the N every pg8 target is checked at.
  for (const gateways of ctx.quick ? [4] : [1, 2, 4]) {
    const id = `pg8/${gateways}`;
    const processes = `${gateways} gateway process${gateways > 1 ? 'es' : ''}`;
    ctx.progress.update(`${id}: both sides, taking turns`, 0, 1);
    const { flat, paced, rate } = await runInterleaved(ctx, gateways, plan, !ctx.quick || gateways === 4);
    const lib = statsOf(flat.library);
    const base = statsOf(flat.raw);
    const recordsRatio = lib.opsPerSec / base.opsPerSec;
    const rereads = rereadsOf(flat.library);
    const heard = (p: Phase): string => `${p.library.records} library / ${p.raw.records} raw records, ${p.library.delaysNs.length} / ${p.raw.delaysNs.length} probes heard (${p.library.lost} / ${p.raw.lost} not heard by the end)`;
    results.push({
      id,
      title: `${processes} on one schema, recording flat out on each other's watched targets, owners draining on wake`,
      sides: [
        { side: 'library', op: "ops/s: records/s of all gateways, flat out; p50/p99: a probe's record → its owner's wake (saturated)", ...lib },
        { side: 'raw', op: 'ops/s: the same SQL per transaction; p50/p99: append tx → LISTEN notification (saturated)', ...base },
      ],
      checks: [
        { target: `library: aggregate records/s ≥ ${MIN_RECORDS_RATIO}× raw (N = ${gateways}, flat out)`, measured: `${Math.round(lib.opsPerSec)} against ${Math.round(base.opsPerSec)} records/s: ${recordsRatio.toFixed(2)}×`, met: recordsRatio >= MIN_RECORDS_RATIO },
        {
          target: 'library: one re-read per notice, in the owner only',
          measured: `${perOp(rereads, flat.library.notices)} re-reads per notice (${rereads} for ${flat.library.notices} notices; by process ${flat.library.rereadsPerProcess.join(', ')})`,
          met: gateways === 1 || rereads <= flat.library.notices,
        },
      ],
      latencyComparable: false,
      notes: [
        `${id}: ${seconds} s per side, ${plan.rounds} rounds of ${plan.roundSeconds} s taking turns, after ${plan.warmUp} s flat out untimed on each; per-round library/raw records/s ` +
          `${spread(flat.rounds.map((r) => r.library.records / r.library.seconds / (r.raw.records / r.raw.seconds)), 2, '×')}; ${heard(flat)}.`,
        `${id} per record, all gateways: ${costLine(flat.library, flat.raw)}. Per notice: library ${perOp(rereads, flat.library.notices)} re-reads (${flat.library.notices} wakes), raw ${perOp(rereadsOf(flat.raw), flat.raw.notices)}.`,
      ],
    });
    if (paced === undefined || rate === undefined) continue;
    const libPaced = statsOf(paced.library);
    const rawPaced = statsOf(paced.raw);
    const roundP99s = (side: 'library' | 'raw'): number[] => paced.rounds.map((round) => statsOf(round[side]).p99Us / 1000);
    results.push({
      id: `${id}p`,
      title: `the same ${processes}, paced: ${Math.round(rate)} records/s in all (${PACED_FRACTION * 100}% of raw's flat out)`,
      sides: [
        { side: 'library', op: "ops/s: records/s offered and done; p50/p99: a probe's record → its owner's wake", ...libPaced },
        { side: 'raw', op: 'ops/s: the same; p50/p99: append tx → LISTEN notification', ...rawPaced },
      ],
      checks:
        gateways === 4
          ? [
              {
                target: `library: p99 record → owner's wake ≤ ${LIMIT_P99_MS_AT_4} ms with N = 4 at ${PACED_FRACTION * 100}% of raw's flat-out load (this machine)`,
                measured: `p99 ${latency(libPaced.p99Us)}, p50 ${latency(libPaced.p50Us)} (raw LISTEN p99 ${latency(rawPaced.p99Us)}, p50 ${latency(rawPaced.p50Us)})`,
                met: libPaced.p99Us <= LIMIT_P99_MS_AT_4 * 1000,
              },
            ]
          : [],
      latencyComparable: false,
      notes: [
        `${id}p: each gateway offers ${(rate / gateways).toFixed(0)} records/s, open loop; a record at least ${PROBE_GAP_MS} ms after the last probe is a probe; ${seconds} s per side in ${plan.rounds} rounds; ` +
          `per-round p99 library ${spread(roundP99s('library'), 1, ' ms')}, raw ${spread(roundP99s('raw'), 1, ' ms')}; ${heard(paced)}. Per record: ${costLine(paced.library, paced.raw)}.`,
      ],
    });
  }
  return results;
}
