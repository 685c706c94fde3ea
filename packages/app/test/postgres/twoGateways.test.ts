// Two gateways in two OS processes on one PostgreSQL schema, each owning its own watchers: a
// human turn recorded in one produces exactly one notice (and one wake) in the other, which owns
// the watcher, and none in the recorder; a burst stays one notice; the drain reopens as in one
// process; a restarted owner re-queues exactly one notice.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import pg from 'pg';

jest.setTimeout(60_000);

const URL = process.env['SESSION_STATE_PG_URL'] as string;
const A = 'agent:a:main';
const B = 'agent:b:main';
const SHARED = 'agent:shared:main';
const SENTINEL = 'agent:sentinel:main';

/** One gateway process and the calls and wakes it reports. */
class Gateway {
  readonly wakes: string[] = [];
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly replies = new Map<number, (message: { result?: unknown; error?: string }) => void>();
  private readonly wakeWaiters: Array<() => void> = [];
  readonly ready: Promise<void>;

  constructor(schema: string, owns: readonly string[]) {
    this.child = fork(path.join(__dirname, 'gatewayWorker.cjs'), [URL, schema, owns.join(',')], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (message: { ready?: boolean; failed?: string; wake?: string; id?: number; result?: unknown; error?: string }) => {
        if (message.ready === true) resolve();
        if (message.failed !== undefined) reject(new Error(message.failed));
        if (message.wake !== undefined) {
          this.wakes.push(message.wake);
          for (const waiter of this.wakeWaiters.splice(0)) waiter();
        }
        if (message.id !== undefined) this.replies.get(message.id)?.(message);
      });
      this.child.on('exit', (code) => reject(new Error(`the gateway exited with ${String(code)} before it was ready`)));
    });
  }

  call<T>(call: string, ...args: unknown[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.replies.set(id, (message) => {
        this.replies.delete(id);
        if (message.error !== undefined) reject(new Error(message.error));
        else resolve(message.result as T);
      });
      this.child.send({ id, call, args });
    });
  }

  /** Resolves once `count` wakes arrived in all; rejects after 15 s. */
  async wakesReach(count: number): Promise<void> {
    while (this.wakes.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited for ${count} wakes, got ${this.wakes.join(', ')}`)), 15_000);
        this.wakeWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call('close');
    await exited;
  }

  kill(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    return exited;
  }
}

const humanTurn = (sessionKey: string, summary: string) => ({ sessionKey, kind: 'human_direct_message', actorType: 'human', summary });
/** The notice a gateway's `pending` or `drain` answers for `target` (issue 15: an object with the 0.1 text). */
const noticeFor = (target: string, since: number) =>
  expect.objectContaining({
    target,
    changesSince: since,
    text: `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${since}.`,
  });

let schema: string;
let gateways: Gateway[];

beforeEach(() => {
  schema = `ss_gw_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  gateways = [];
});

afterEach(async () => {
  await Promise.all(gateways.map((g) => g.close().catch(() => undefined)));
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

async function start(owns: readonly string[]): Promise<Gateway> {
  const gateway = new Gateway(schema, owns);
  gateways.push(gateway);
  await gateway.ready;
  return gateway;
}

test('a human turn recorded in gateway A gives exactly one notice and one wake in gateway B, which owns the watcher, and none in A', async () => {
  const a = await start([A]);
  const b = await start([B]);
  // B's agent sends to the shared session and watches it; A's agent does the same (A owns A).
  await b.call('sent', { senderKey: B, deliveredTo: SHARED, watch: true });
  await a.call('sent', { senderKey: A, deliveredTo: SHARED, watch: true });

  const recorded = await a.call<{ ok: boolean; event: { sequence: number } }>('record', humanTurn(SHARED, 'a human message'));
  expect(recorded.ok).toBe(true);
  // Both watchers hear it, each in the gateway that owns it: A from its own append, B by signal.
  await b.wakesReach(1);
  expect(b.wakes).toEqual([B]);
  expect(await b.call('pending', B)).toEqual([noticeFor(SHARED, 0)]);
  expect(await b.call('pending', A)).toEqual([]);
  expect(await a.call('pending', A)).toEqual([noticeFor(SHARED, 0)]);
  expect(await a.call('pending', B)).toEqual([]);
  expect(a.wakes).toEqual([A]);

  // A burst of turns in A stays one notice in B. The sentinel (a second watched target) proves
  // every earlier signal was handled: signals arrive in commit order and B handles them in order.
  for (let i = 0; i < 4; i += 1) await a.call('record', humanTurn(SHARED, `burst ${i}`));
  await b.call('sent', { senderKey: B, deliveredTo: SENTINEL, watch: true });
  await a.call('record', humanTurn(SENTINEL, 'sentinel'));
  await b.wakesReach(2);
  expect(b.wakes).toEqual([B, B]);
  expect(await b.call('pending', B)).toEqual([noticeFor(SHARED, 0), noticeFor(SENTINEL, 0)]);

  // B's turn drains: the notice froze at the first turn, so the burst reopens exactly one notice.
  expect(await b.call('drain', B)).toEqual([noticeFor(SHARED, 0), noticeFor(SENTINEL, 0)]);
  expect(await b.call('pending', B)).toEqual([noticeFor(SHARED, recorded.event.sequence)]);
  const metrics = await b.call<{ noticesQueued: number; noticesReopened: number }>('metrics');
  expect(metrics.noticesReopened).toBe(1);
});

/** Polls `condition` every 20 ms until it holds; fails naming `what` after 15 s. */
async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a session deleted in gateway A withdraws the notice gateway B queued on it; B’s drain hands over only the live one', async () => {
  const a = await start([A]);
  const b = await start([B]);
  await b.call('sent', { senderKey: B, deliveredTo: SHARED, watch: true });
  await b.call('sent', { senderKey: B, deliveredTo: SENTINEL, watch: true });
  await a.call('record', humanTurn(SHARED, 'a human message'));
  await a.call('record', humanTurn(SENTINEL, 'another'));
  await b.wakesReach(2);
  // One re-read offers what it finds by target, two offer in signal order: the order is not the point here.
  const byTarget = (notices: readonly { readonly target: string }[]) => [...notices].sort((x, y) => x.target.localeCompare(y.target));
  expect(byTarget(await b.call('pending', B))).toEqual([noticeFor(SENTINEL, 0), noticeFor(SHARED, 0)]);

  await a.call('sessionDeleted', SHARED);
  await eventually(async () => (await b.call<string[]>('pending', B)).length === 1, 'B withdraws the notice on the deleted session');
  expect(await b.call('pending', B)).toEqual([noticeFor(SENTINEL, 0)]);
  expect(await b.call('drain', B)).toEqual([noticeFor(SENTINEL, 0)]);
  expect((await b.call<{ noticesWithdrawn: number }>('metrics')).noticesWithdrawn).toBe(1);
});

test('an owner that was down when the turn was recorded re-queues exactly one notice at its restart scan', async () => {
  const a = await start([A]);
  let b = await start([B]);
  await b.call('sent', { senderKey: B, deliveredTo: SHARED, watch: true });
  await b.kill();
  gateways = gateways.filter((g) => g !== b);

  await a.call('record', humanTurn(SHARED, 'while B was down'));
  await a.call('record', humanTurn(SHARED, 'still down'));
  expect(await a.call('pending', B)).toEqual([]);

  b = await start([B]);
  await b.wakesReach(1);
  expect(await b.call('pending', B)).toEqual([noticeFor(SHARED, 0)]);
  expect(b.wakes).toEqual([B]);
});

test('a turn recorded in gateway A on a target B watches ambiently queues the notice in B and wakes nobody; a change on a target B watches explicitly wakes it once', async () => {
  const a = await start([A]);
  const b = await start([B]);
  await b.call('watch', B, SHARED, { ambient: true });
  await b.call('sent', { senderKey: B, deliveredTo: SENTINEL, watch: true });
  await a.call('record', humanTurn(SHARED, 'a human message in the group'));
  // The sentinel's wake proves the earlier signal was handled (signals arrive in commit order).
  await a.call('record', humanTurn(SENTINEL, 'sentinel'));
  await b.wakesReach(1);
  expect(b.wakes).toEqual([B]);
  expect(await b.call('pending', B)).toEqual([noticeFor(SHARED, 0), noticeFor(SENTINEL, 0)]);
});
