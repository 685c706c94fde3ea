// The workloads that spawn the command line. 9: its cold start (`--version`, `status <key>`), spawned to
// exit, against `node -e 0`; the figure is the median, the samples alternate between the sides.
// 12 (SQLite file) and pg9 (PostgreSQL): a notice to an agent outside the gateway, from just before the
// gateway's `record` (this process) to the `notices_wait` answer in the hands of an MCP client of `session-state mcp
// --reader` (another process), read as JSON-RPC lines on its stdout. Each op records on a fresh child, so each is one
// new notice, and starts only once the server is waiting (a `ping` sent after the call is answered).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

import { isCursorSignalSource } from '@session-state/domain';

import type { BenchContext, Check, SideResult, WorkloadResult } from '../harness/context.js';
import { createSignalWaiter, runPaired, summarise } from '../harness/measure.js';
import { openLibraryStore, openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { latency } from '../report.js';
import { expectRecorded, humanTurn } from './setup.js';

const CLI_BIN = resolve(import.meta.dirname, '..', '..', '..', 'packages', 'cli', 'bin', 'session-state.js');
const MANAGER = 'agent:bench:main';
const childOf = (i: number): string => `agent:bench:subagent:c${i}`;

/** Targets: median spawn-to-exit time as a multiple of `node -e 0`'s. */
const COLD_START_TARGETS = { version: 2, status: 3.5 } as const;
const SESSION = 'agent:main:main';

/** Runs `args` under node to exit, without the variables that would point the CLI elsewhere; its wall time in ns. */
function spawnOnce(args: readonly string[]): number {
  const env = { ...process.env };
  delete env['SESSION_STATE_DB'];
  delete env['SESSION_STATE_PG_SCHEMA'];
  const t0 = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  const ns = Number(process.hrtime.bigint() - t0);
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return ns;
}

/** Alternating samples of the CLI run and `node -e 0`, after one unmeasured run of each. */
function measurePair(cliArgs: readonly string[], samples: number, op: string): [SideResult, SideResult] {
  const cliNs: number[] = [];
  const nodeNs: number[] = [];
  spawnOnce([CLI_BIN, ...cliArgs]);
  spawnOnce(['-e', '0']);
  for (let i = 0; i < samples; i++) {
    cliNs.push(spawnOnce([CLI_BIN, ...cliArgs]));
    nodeNs.push(spawnOnce(['-e', '0']));
  }
  return [{ side: 'library', op, ...summarise(cliNs) }, { side: 'raw', op: 'node -e 0, spawned to exit', ...summarise(nodeNs) }];
}

function check(name: string, [cli, node]: readonly [SideResult, SideResult], target: number): Check {
  const r = cli.p50Us / node.p50Us;
  return { target: `${name} median spawn-to-exit ≤ ${target}× node -e 0`, measured: `${r.toFixed(2)}× (${(cli.p50Us / 1000).toFixed(0)} ms against ${(node.p50Us / 1000).toFixed(0)} ms)`, met: r <= target };
}

export function w9CliColdStart(ctx: BenchContext): Promise<WorkloadResult[]> {
  const samples = ctx.quick ? 6 : 30;
  const db = ctx.tempDb('w9-cli');
  spawnOnce([CLI_BIN, 'record', SESSION, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'cold start', '--db', db]);
  ctx.progress.update('9 CLI cold start: --version', 0, 2);
  const version = measurePair(['--version'], samples, 'session-state --version, spawned to exit');
  ctx.progress.update('9 CLI cold start: status', 1, 2);
  const status = measurePair(['status', SESSION, '--db', db], samples, 'session-state status on a state file, spawned to exit');
  return Promise.resolve([
    { id: '9', title: 'CLI cold start: --version', sides: version, checks: [check('--version', version, COLD_START_TARGETS.version)] },
    { id: '9s', title: 'CLI cold start: status (SQLite)', sides: status, checks: [check('status', status, COLD_START_TARGETS.status)] },
  ]);
}

type Rpc = { readonly id?: number; readonly result?: { readonly structuredContent?: { readonly notices?: readonly { readonly target: string }[] } }; readonly error?: unknown };

/** `session-state mcp <args> --reader MANAGER`, initialized, and a request function over its stdio. */
async function startServer(args: readonly string[]) {
  const server = spawn(process.execPath, [CLI_BIN, 'mcp', ...args, '--reader', MANAGER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createSignalWaiter<Rpc>('answer');
  createInterface({ input: server.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Rpc;
    if (message.id !== undefined) answers.signal(String(message.id), message);
  });
  let ids = 0;
  const request = (method: string, params: object = {}): Promise<Rpc> => {
    const id = ++ids;
    const answer = answers.next(String(id));
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  };
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } });
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return { request, close: async () => void (server.stdin.end(), await once(server, 'exit')) };
}

async function measure(ctx: BenchContext, id: string, args: readonly string[], gateway: Awareness): Promise<WorkloadResult> {
  const n = ctx.quick ? 40 : 200;
  const warmup = ctx.quick ? 10 : 20;
  const title = "another process's record → the notice in an MCP client's hands (notices_wait)";
  for (let i = 0; i < warmup + n; i++) if (!(await gateway.childSpawned({ parentKey: MANAGER, childKey: childOf(i) })).ok) throw new Error('spawn failed');
  const server = await startServer(args);
  const notice = async (i: number): Promise<number> => {
    const answer = server.request('tools/call', { name: 'notices_wait', arguments: { timeoutSeconds: 30 } });
    await server.request('ping');
    const t0 = process.hrtime.bigint();
    const [, message] = await Promise.all([gateway.record(humanTurn(childOf(i))).then((result) => expectRecorded(result, 'record')), answer]);
    const ns = Number(process.hrtime.bigint() - t0);
    const notices = message.result?.structuredContent?.notices ?? [];
    if (notices.length !== 1 || notices[0]?.target !== childOf(i)) throw new Error(`${id}: op ${i} answered ${JSON.stringify(message)}, expected the one notice on ${childOf(i)}`);
    return ns;
  };
  const [stats] = await runPaired({ label: `${id}: ${title}`, n, warmup, chunk: n, sides: [{ name: 'library', timed: notice }] }, ctx.progress).finally(() => server.close());
  return {
    id,
    title,
    sides: [{ side: 'library', op: "gateway's record → notices_wait answer read by the client", ...stats }],
    checks: [],
    notes: [`${id}: one new notice per op on a fresh child, the server already waiting; p50 ${latency(stats.p50Us)}, p99 ${latency(stats.p99Us)}. No raw side: the path is the product's own (store signal, re-read, take, stdio).`],
  };
}

export async function w12McpNoticeDelay(ctx: BenchContext): Promise<WorkloadResult[]> {
  const path = ctx.tempDb('w12-mcp');
  const store = openLibraryStore(path);
  // Another process's append reaches the server at once only if the store hears other processes; else at its resync.
  if (!isCursorSignalSource(store)) {
    await store.close();
    ctx.progress.line('12: skipped: this SQLite store does not hear other processes (the resync timer, every 60 s, would carry every op)');
    return [];
  }
  const gateway = await startOnStore(store, { ownsSession: (key) => key !== MANAGER });
  return [await measure(ctx, '12', ['--db', path], gateway).finally(() => gateway.close())];
}

export async function pg9McpNoticeDelay(ctx: PgBenchContext): Promise<WorkloadResult> {
  const place = freshPlace(ctx);
  const gateway = await startOnStore(await openPgLibraryStore(place), { ownsSession: (key) => key !== MANAGER });
  return measure(ctx, 'pg9', ['--db', place.url, '--schema', place.schema], gateway).finally(() => gateway.close());
}
