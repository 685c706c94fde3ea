// `npm run bench [-- --quick] [-- --only 1,4,pg] [-- --pg-url url]`: every workload, library and raw
// side by side, then the PostgreSQL column when its server answers (each side on a fresh schema,
// dropped at the end), else why it was skipped; prints the tables and checks, writes bench/results.json.
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';

import Database from 'better-sqlite3';

import { createProgress, createTempDir, FULL, pgSizes, QUICK, type BenchContext, type WorkloadResult } from './harness/context.js';
import { createPgSchemas, probePgServer, redactPgUrl, resolvePgUrl, type PgBenchContext } from './postgres/server.js';
import { renderReport, writeResults, type PgColumn, type RunInfo } from './report.js';
import { pg1SingleAppend, pg2FanOut, pg3InFlight, w10FanOutScale, w1SingleAppend, w2FanOut, w3InFlight, w8Burst } from './workloads/appends.js';
import { pg4StatusReads, w11List, w4StatusReads } from './workloads/reads.js';
import { pg5mPruneAtScale, pg5Prune, w5mPruneAtScale, w5Prune } from './workloads/w5Prune.js';
import { pg6RestartScan, w6LargeRestartScan, w6RestartScan } from './workloads/w6RestartScan.js';
import { w7Memory } from './workloads/w7Memory.js';
import { pg9McpNoticeDelay, w12McpNoticeDelay, w9CliColdStart } from './workloads/cli.js';
import { pg7NoticeDelay, w13NoticeDelay } from './workloads/noticeDelay.js';
import { pg8Gateways } from './workloads/pgGateways.js';

type Workload<C = BenchContext> = (ctx: C) => Promise<WorkloadResult | WorkloadResult[]>;

const WORKLOADS: ReadonlyArray<readonly [string, Workload]> = [
  ['1', w1SingleAppend],
  ['2', w2FanOut],
  ['3', w3InFlight],
  ['4', w4StatusReads],
  ['5', w5Prune],
  ['5m', w5mPruneAtScale],
  ['6', w6RestartScan],
  ['6L', w6LargeRestartScan],
  ['7', w7Memory],
  ['8', w8Burst],
  ['9', w9CliColdStart],
  ['10', w10FanOutScale],
  ['11', w11List],
  ['12', w12McpNoticeDelay],
  ['13', w13NoticeDelay],
];

const PG_WORKLOADS: ReadonlyArray<readonly [string, Workload<PgBenchContext>]> = [
  ['pg1', pg1SingleAppend],
  ['pg2', pg2FanOut],
  ['pg3', pg3InFlight],
  ['pg4', pg4StatusReads],
  ['pg5', pg5Prune],
  ['pg5m', pg5mPruneAtScale],
  ['pg6', pg6RestartScan],
  ['pg7', pg7NoticeDelay],
  ['pg8', pg8Gateways],
  ['pg9', pg9McpNoticeDelay],
];

/** Workloads --quick cannot afford: the full run, or --only naming them, runs them. */
const FULL_RUN_ONLY: ReadonlySet<string> = new Set(['5m', 'pg5m']);

const USAGE =
  'usage: node bench/dist/main.js [--quick] [--large] [--only 1,2,...,13,5m,6L,pg,pg1,...,pg9,pg5m] [--out path] [--pg-url postgres://…]\n' +
  `  the PostgreSQL column (${PG_WORKLOADS.map(([id]) => id).join(', ')}; --only pg for all) runs on --pg-url, else SESSION_STATE_PG_URL, else the local default`;

const OPTIONS = { quick: { type: 'boolean' }, large: { type: 'boolean' }, only: { type: 'string' }, out: { type: 'string' }, 'pg-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

function parseArgs(args: string[]) {
  let values: ReturnType<typeof parseArgv<{ args: string[]; options: typeof OPTIONS }>>['values'];
  try {
    values = parseArgv({ args, options: OPTIONS }).values;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = values.only === undefined ? undefined : new Set(values.only.split(','));
  return { quick: values.quick === true, large: values.large === true, only, out: values.out ?? join(import.meta.dirname, '..', 'results.json'), pgUrl: values['pg-url'] };
}

/** Runs the selected workloads of `table` in order, a progress line after each. */
async function runAll<C extends BenchContext>(table: ReadonlyArray<readonly [string, Workload<C>]>, ctx: C, selected: (id: string) => boolean): Promise<WorkloadResult[]> {
  const results: WorkloadResult[] = [];
  for (const [id, run] of table.filter(([w]) => selected(w))) {
    const t0 = Date.now();
    results.push(...[await run(ctx)].flat());
    ctx.progress.line(`✓ workload ${id} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  return results;
}

async function runPgColumn(ctx: BenchContext, url: string, selected: (id: string) => boolean): Promise<PgColumn> {
  const probe = await probePgServer(url);
  if (!probe.ok) return { ran: false, url: redactPgUrl(url), reason: probe.reason };
  const schemas = createPgSchemas(url);
  try {
    return { ran: true, server: probe.info, results: await runAll(PG_WORKLOADS, { ...ctx, pg: { url, schemas, sizes: pgSizes(ctx.sizes, ctx.quick) } }, selected) };
  } finally {
    await schemas.dropAll();
  }
}

function machineLine(): string {
  const cpu = cpus();
  const db = new Database(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${gib(totalmem())} RAM (${gib(freemem())} free), node ${process.version}, SQLite ${sqlite}, ${process.platform}/${process.arch}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { only, quick } = args;
  const progress = createProgress();
  const temp = createTempDir();
  const started = Date.now();
  const loadAvgAtStart = loadavg();
  const machine = machineLine();
  progress.line(`machine: ${machine}`);
  const ctx: BenchContext = { quick, large: args.large, sizes: quick ? QUICK : FULL, progress, tempDb: temp.tempDb };
  // `--only 4a` selects workload 4, which reports 4a and 4b.
  const named = (id: string): boolean => only?.has(id) === true || [...(only ?? [])].some((o) => o.startsWith(id) && /^[a-z]$/.test(o.slice(id.length)) && !WORKLOADS.some(([w]) => w === o));
  const selected = (id: string, inColumn: boolean): boolean => (only !== undefined ? named(id) || (inColumn && only.has('pg') && !(quick && FULL_RUN_ONLY.has(id))) : !(quick && FULL_RUN_ONLY.has(id)));
  let results: WorkloadResult[] = [];
  let pg: PgColumn | undefined;
  try {
    results = await runAll(WORKLOADS, ctx, (id) => selected(id, false));
    const inPg = (id: string): boolean => selected(id, true);
    if (PG_WORKLOADS.some(([id]) => inPg(id))) pg = await runPgColumn(ctx, resolvePgUrl(args.pgUrl), inPg);
  } finally {
    temp.dispose();
  }
  const info: RunInfo = { machine, mode: quick ? 'quick' : 'full', startedAt: new Date(started).toISOString(), durationS: (Date.now() - started) / 1000, loadAvgAtStart };
  console.log(renderReport(info, results, pg));
  writeResults(args.out, info, results, pg);
  progress.line(`results written to ${args.out}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
