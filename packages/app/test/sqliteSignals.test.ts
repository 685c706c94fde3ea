// Notices across processes on one SQLite file: a gateway over the file hears another process's
// commits (the store's `listen`: the folder watched, PRAGMA data_version compared) and re-reads
// its pending cursors. Another process's record queues the notice and wakes; its reader
// acknowledgement, unwatch, reset or delete withdraws a queued one; ownsSession decides which
// gateway queues it; and nothing is re-read while nothing changes. The other process is a real
// one: the CLI's `record`, or the BUILT facade in a child (support/sqliteProcess.cjs) opened as
// the CLI opens it. Every gateway here runs with resyncIntervalMs 0, so only a signal can carry
// a notice; on both drivers (the CLI runs on better-sqlite3 in both).
import { execFile, execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';
import { noticeTextOf, tempDbPath, type TempDb } from '@session-state/testkit';

import { createSessionStateAwareness, type SessionStateAwareness, type SessionStateAwarenessOptions } from '../src/index.js';
import { humanTurn, recordingLogger, type RecordingLogger } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

jest.setTimeout(60_000);

const WATCHER = 'agent:alpha:main';
const OTHER_WATCHER = 'agent:beta:main';
const TARGET = 'agent:worker:main';
const UNWATCHED = 'agent:bystander:main';
/** How long a test waits for a signal before it fails: far beyond any delay seen, and no timer could deliver instead. */
const SIGNAL_BOUND_MS = 10_000;
const DRIVERS = ['better-sqlite3', 'node:sqlite'] as const;

const root = path.resolve(__dirname, '..', '..', '..');
const cliBin = path.join(root, 'packages', 'cli', 'bin', 'session-state.js');
const runFile = promisify(execFile);

beforeAll(() => {
  // The children run the built packages; a bare `jest` run on a fresh checkout builds them here.
  if (!fs.existsSync(path.join(root, 'packages', 'cli', 'dist', 'main.js'))) execFileSync('npx', ['tsc', '-b', path.join(root, 'packages', 'cli')], { stdio: 'inherit' });
});

// --- the other process ---------------------------------------------------------------------------

/** The facade in a child process on the same file, driven over IPC. */
class OtherProcess {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly replies = new Map<number, (message: { result?: unknown; error?: string }) => void>();
  readonly ready: Promise<void>;

  constructor(file: string, driver: string) {
    this.child = fork(path.join(__dirname, 'support', 'sqliteProcess.cjs'), [file, driver], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve, reject) => {
      this.child.on('message', (message: { ready?: boolean; failed?: string; id?: number; result?: unknown; error?: string }) => {
        if (message.ready === true) resolve();
        if (message.failed !== undefined) reject(new Error(message.failed));
        if (message.id !== undefined) this.replies.get(message.id)?.(message);
      });
      this.child.on('exit', (code) => reject(new Error(`the other process exited with ${String(code)} before it was ready`)));
    });
  }

  call<T>(call: keyof SessionStateAwareness, ...args: unknown[]): Promise<T> {
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

  async close(): Promise<void> {
    if (this.child.exitCode !== null || !this.child.connected) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call('close');
    await exited;
  }
}

/** `session-state record` on the file: a one-shot CLI process. */
const cliRecord = (file: string, sessionKey: string): Promise<unknown> =>
  runFile(process.execPath, [cliBin, '--db', file, 'record', sessionKey, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'a human turn via the CLI']);

// --- gateways ------------------------------------------------------------------------------------

interface Gateway {
  readonly awareness: SessionStateAwareness;
  readonly wakes: string[];
  readonly logger: RecordingLogger;
  /** `scanPending` calls that were not the restart scan: the re-reads. */
  rereads: number;
}

let temp: TempDb;
let gateways: Gateway[];
let others: OtherProcess[];

beforeEach(() => {
  temp = tempDbPath();
  gateways = [];
  others = [];
});
afterEach(async () => {
  for (const gateway of gateways) await gateway.awareness.close();
  for (const other of others) await other.close();
  temp.remove();
});

async function gateway(driver: string, extra: Partial<SessionStateAwarenessOptions> = {}): Promise<Gateway> {
  const store = openSqliteStore({ path: temp.path, driver: driver as (typeof DRIVERS)[number] });
  const wakes: string[] = [];
  const logger = recordingLogger();
  const counting: StateStore = {
    ...store,
    scanPending: (request) => {
      if (request.raise === undefined) made.rereads += 1;
      return store.scanPending(request);
    },
  };
  const made: Gateway = { awareness: undefined as never, wakes, logger, rereads: 0 };
  Object.assign(made, { awareness: await createSessionStateAwareness({ store: counting, logger, resyncIntervalMs: 0, wake: (watcher) => wakes.push(watcher), ...extra }) });
  gateways.push(made);
  return made;
}

async function otherProcess(driver: string): Promise<OtherProcess> {
  const other = new OtherProcess(temp.path, driver);
  others.push(other);
  await other.ready;
  return other;
}

/** Waits until `condition` holds; fails naming `what` after SIGNAL_BOUND_MS. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + SIGNAL_BOUND_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${SIGNAL_BOUND_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// --- the scenarios -------------------------------------------------------------------------------

describe.each(DRIVERS)('a gateway on %s and another process on the same SQLite file', (driver) => {
  test('another process’s record on a watched target (the CLI’s) queues the notice in the gateway and wakes it', async () => {
    const gw = await gateway(driver);
    await gw.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true });
    await cliRecord(temp.path, TARGET);
    await until(() => gw.awareness.pending(WATCHER).length > 0, 'the notice reaches the gateway');
    expect(noticeTexts(gw.awareness.pending(WATCHER))).toEqual([noticeTextOf(TARGET, 0)]);
    await until(() => gw.wakes.length > 0, 'the gateway wakes the watcher');
    expect(gw.wakes).toEqual([WATCHER]);
    expect(gw.awareness.metrics()).toMatchObject({ noticesQueued: 1, noticesSignalled: 1 });
  });

  test('another process’s record on an ambient-watched target queues the notice in the gateway but wakes nobody, as does the next gateway’s restart scan', async () => {
    const gw = await gateway(driver);
    await gw.awareness.watch(WATCHER, TARGET, { ambient: true });
    await cliRecord(temp.path, TARGET);
    await until(() => gw.awareness.pending(WATCHER).length > 0, 'the notice reaches the gateway');
    expect([noticeTexts(gw.awareness.pending(WATCHER)), gw.wakes]).toEqual([[noticeTextOf(TARGET, 0)], []]);
    const next = await gateway(driver);
    await new Promise((resolve) => setImmediate(resolve));
    expect([noticeTexts(next.awareness.pending(WATCHER)), next.wakes]).toEqual([[noticeTextOf(TARGET, 0)], []]);
  });

  test('another process’s status with reader up to the head withdraws the gateway’s queued notice', async () => {
    const gw = await gateway(driver);
    const other = await otherProcess(driver);
    await gw.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true });
    await gw.awareness.record(humanTurn(TARGET));
    expect(gw.awareness.pending(WATCHER)).toHaveLength(1);

    await other.call('status', TARGET, { changesSince: 0, reader: WATCHER });
    await until(() => gw.awareness.pending(WATCHER).length === 0, 'the notice is withdrawn');
    expect(gw.awareness.metrics().noticesWithdrawn).toBe(1);
    expect(await gw.awareness.drain(WATCHER)).toEqual([]);
  });

  test.each([
    ['unwatch', [WATCHER, TARGET]],
    ['sessionReset', [WATCHER]],
    ['sessionDeleted', [TARGET]],
  ] as const)('another process’s %s withdraws the gateway’s queued notice', async (call, args) => {
    const gw = await gateway(driver);
    const other = await otherProcess(driver);
    await gw.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true });
    await gw.awareness.record(humanTurn(TARGET));
    expect(gw.awareness.pending(WATCHER)).toHaveLength(1);

    await other.call(call, ...args);
    await until(() => gw.awareness.pending(WATCHER).length === 0, `${call} withdraws the notice`);
    expect(gw.awareness.metrics().noticesWithdrawn).toBe(1);
    expect(await gw.awareness.drain(WATCHER)).toEqual([]);
  });

  test('with ownsSession, each gateway queues (and wakes) only the watchers it owns', async () => {
    const alpha = await gateway(driver, { ownsSession: (key) => key === WATCHER });
    const beta = await gateway(driver, { ownsSession: (key) => key === OTHER_WATCHER });
    const other = await otherProcess(driver);
    await alpha.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true });
    await beta.awareness.sent({ senderKey: OTHER_WATCHER, deliveredTo: TARGET, watch: true });

    await other.call('record', humanTurn(TARGET));
    await until(() => alpha.awareness.pending(WATCHER).length > 0 && beta.awareness.pending(OTHER_WATCHER).length > 0, 'each owner queues its notice');
    expect(noticeTexts(alpha.awareness.pending(WATCHER))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(noticeTexts(beta.awareness.pending(OTHER_WATCHER))).toEqual([noticeTextOf(TARGET, 0)]);
    expect(alpha.awareness.pending(OTHER_WATCHER)).toEqual([]);
    expect(beta.awareness.pending(WATCHER)).toEqual([]);
    await until(() => alpha.wakes.length > 0 && beta.wakes.length > 0, 'each owner wakes its watcher');
    expect([alpha.wakes, beta.wakes]).toEqual([[WATCHER], [OTHER_WATCHER]]);
  });

  test('nothing is re-read while nothing changes, nor for the gateway’s own commits; one re-read follows another process’s commit', async () => {
    const gw = await gateway(driver, { startup: { prune: 'off' } });
    const other = await otherProcess(driver);
    await gw.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true });
    for (let i = 0; i < 20; i += 1) await gw.awareness.record(humanTurn(UNWATCHED));
    await sleep(1_000);
    expect(gw.rereads).toBe(0);

    await other.call('record', humanTurn(TARGET));
    await until(() => gw.awareness.pending(WATCHER).length > 0, 'the notice reaches the gateway');
    await sleep(300);
    expect(gw.rereads).toBe(1);
    expect(gw.logger.entries).toEqual([]);
  });
});
