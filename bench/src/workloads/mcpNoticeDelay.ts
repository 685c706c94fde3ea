// Workloads 12 (SQLite file) and pg9 (PostgreSQL): a notice to an agent outside the gateway, from just before the
// gateway's `record` (this process) to the `notices_wait` answer in the hands of an MCP client of `session-state mcp
// --reader` (another process), read as JSON-RPC lines on its stdout. Each op records on a fresh child, so each is one
// new notice, and starts only once the server is waiting (a `ping` sent after the call is answered).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

import { isCursorSignalSource } from '@session-state/domain';

import type { BenchContext, WorkloadResult } from '../harness/context.js';
import { runPaired } from '../harness/measure.js';
import { openLibraryStore, openPgLibraryStore, startOnStore, type Awareness } from '../library/facade.js';
import { freshPlace, type PgBenchContext } from '../postgres/server.js';
import { latency } from '../report.js';
import { expectRecorded, humanTurn } from './keys.js';

const CLI_BIN = resolve(import.meta.dirname, '..', '..', '..', 'packages', 'cli', 'bin', 'session-state.js');
const MANAGER = 'agent:bench:main';
const childOf = (i: number): string => `agent:bench:subagent:c${i}`;
/** An op whose answer has not come by then fails the workload. */
const ANSWER_TIMEOUT_MS = 10_000;

type Rpc = { readonly id?: number; readonly result?: { readonly structuredContent?: { readonly notices?: readonly { readonly target: string }[] } }; readonly error?: unknown };

/** `session-state mcp <args> --reader MANAGER`, initialized, and a request function over its stdio. */
async function startServer(args: readonly string[]) {
  const server = spawn(process.execPath, [CLI_BIN, 'mcp', ...args, '--reader', MANAGER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = new Map<number, (message: Rpc) => void>();
  createInterface({ input: server.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Rpc;
    if (message.id !== undefined) answers.get(message.id)?.(message);
  });
  let ids = 0;
  const request = (method: string, params: object = {}): Promise<Rpc> =>
    new Promise((done, fail) => {
      const id = ++ids;
      const timer = setTimeout(() => fail(new Error(`no answer to ${method} within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
      answers.set(id, (message) => {
        clearTimeout(timer);
        answers.delete(id);
        done(message);
      });
      server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
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
  try {
    return [await measure(ctx, '12', ['--db', path], gateway)];
  } finally {
    await gateway.close();
  }
}

export async function pg9McpNoticeDelay(ctx: PgBenchContext): Promise<WorkloadResult> {
  const place = freshPlace(ctx);
  const gateway = await startOnStore(await openPgLibraryStore(place), { ownsSession: (key) => key !== MANAGER });
  try {
    return await measure(ctx, 'pg9', ['--db', place.url, '--schema', place.schema], gateway);
  } finally {
    await gateway.close();
  }
}
