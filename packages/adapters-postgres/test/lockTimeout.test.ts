// Bounded waits: a foreign transaction holding a session's head row (an operator's psql left in
// BEGIN after SELECT … FOR UPDATE) makes operations on that session fail as "database is locked"
// once lockTimeoutMs (or statementTimeoutMs) has passed, with nothing stored changed, while other
// sessions go on; a server that stops answering fails the operation once the client's deadline
// has passed. Small bounds keep the tests short; no test asserts a time.
import net from 'node:net';

import { asSequence, isStoreError, type SessionKey, type StateStore } from '@session-state/domain';
import { dropSchema, heldNotices, pgUrl, uniqueSchema } from '@session-state/testkit';
import pg from 'pg';

import { openPostgresStore, type PostgresStoreOptions } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(30_000);

const A = key('agent:a:main');
const B = key('agent:b:main');
const W = key('agent:w:main');

let schema: string;
let store: StateStore | undefined;
let foreign: pg.Client | undefined;

beforeEach(() => {
  schema = uniqueSchema('locks');
});

afterEach(async () => {
  await foreign?.query('ROLLBACK').catch(() => undefined);
  await foreign?.end();
  foreign = undefined;
  await store?.close();
  store = undefined;
  await dropSchema(schema);
});

async function open(options: Partial<PostgresStoreOptions> = {}): Promise<StateStore> {
  store = await openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 4, ...options });
  return store;
}

/** A connection of the test's own that holds `session`'s head row in an open transaction. */
async function holdHead(session: SessionKey): Promise<void> {
  foreign = new pg.Client({ connectionString: pgUrl() });
  await foreign.connect();
  await foreign.query('BEGIN');
  const held = await foreign.query(`SELECT head FROM ${schema}.heads WHERE session_key = $1 FOR UPDATE`, [session]);
  expect(held.rowCount).toBe(1);
}

async function release(): Promise<void> {
  await foreign?.query('ROLLBACK');
}

const append = (s: StateStore, sessionKey: SessionKey, summary: string) => s.append([request(humanTurn(sessionKey, { summary }))]);

function failureMessage(outcome: { readonly type: string; readonly error?: { readonly message: string } } | undefined): string {
  expect(outcome?.type).toBe('failed');
  return outcome?.error?.message ?? '';
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

test('a foreign lock on a head row: appends and watches on that session fail as "database is locked" after lockTimeoutMs, nothing changes, other sessions go on, and the session works once the lock ends', async () => {
  const s = await open({ lockTimeoutMs: 300 });
  const [first] = await append(s, A, 'first on A');
  expect(first?.type).toBe('appended');
  expect((await append(s, B, 'first on B'))[0]?.type).toBe('appended');
  await holdHead(A);

  expect(failureMessage((await append(s, A, 'blocked'))[0])).toMatch(/^database is locked: .*lockTimeoutMs/);
  // A batch of several sessions: only the locked session's requests fail.
  const mixed = await s.append([request(humanTurn(A, { summary: 'blocked 2' })), request(humanTurn(B, { summary: 'second on B' })), request(humanTurn(A, { summary: 'blocked 3' }))]);
  expect(mixed.map((outcome) => outcome.type)).toEqual(['failed', 'appended', 'failed']);
  expect(failureMessage(mixed[2])).toMatch(/^database is locked/);
  // A batch of one session's requests fails whole, each with the lock's failure.
  const same = await s.append([request(humanTurn(A, { summary: 'blocked 4' })), request(humanTurn(A, { summary: 'blocked 5' }))]);
  expect(same.map((outcome) => outcome.type)).toEqual(['failed', 'failed']);
  const watchError = await rejection(s.watch({ watcher: W, target: A, now: 1 }));
  expect(isStoreError(watchError) && watchError.operation).toBe('watch');
  expect(isStoreError(watchError) && watchError.message).toMatch(/^database is locked/);
  expect((await append(s, B, 'third on B'))[0]?.type).toBe('appended');

  // Nothing of the failed operations was stored (reads take no row lock).
  const during = await s.readChanges(A, asSequence(0), 100);
  expect(during.events.map((e) => e.summary)).toEqual(['first on A']);
  expect(during.head.head).toBe(first?.type === 'appended' ? first.event.sequence : -1);
  expect(await s.listCursors({ target: A })).toEqual([]);

  await release();
  expect((await append(s, A, 'after'))[0]?.type).toBe('appended');
  expect((await s.readChanges(A, asSequence(0), 100)).events.map((e) => e.summary)).toEqual(['first on A', 'after']);
  expect((await s.readChanges(B, asSequence(0), 100)).events.map((e) => e.summary)).toEqual(['first on B', 'second on B', 'third on B']);
});

test('a foreign lock on a head row under an append headed by a drain: the drain and the other sessions\' appends are kept, only the locked session\'s append fails', async () => {
  const s = await open({ lockTimeoutMs: 300 });
  expect((await append(s, A, 'first on A'))[0]?.type).toBe('appended');
  await s.watch({ watcher: W, target: B, now: 1 });
  expect((await append(s, B, 'first on B'))[0]?.type).toBe('appended');
  const [pending] = await heldNotices(s, (watcher) => watcher === W);
  expect(pending?.target).toBe(B);
  await holdHead(A);

  const [drained, ...appended] = await s.append([
    { type: 'drain', watcher: W, acks: [{ target: B, notified: pending?.notified ?? asSequence(0) }], now: 2 },
    request(humanTurn(A, { summary: 'blocked' })),
    request(humanTurn(B, { summary: 'second on B' })),
  ]);
  expect(drained?.type === 'drained' && drained.outcomes.map((outcome) => outcome.result)).toEqual(['acked']);
  expect(appended.map((outcome) => outcome.type)).toEqual(['failed', 'appended']);
  expect(failureMessage(appended[0])).toMatch(/^database is locked/);
  expect((await s.readChanges(A, asSequence(0), 100)).events.map((e) => e.summary)).toEqual(['first on A']);
});

test('a lock wait beyond statementTimeoutMs (below lockTimeoutMs) is cancelled by the server and reported as "database is locked" too', async () => {
  const s = await open({ lockTimeoutMs: 20_000, statementTimeoutMs: 300 });
  expect((await append(s, A, 'first'))[0]?.type).toBe('appended');
  await holdHead(A);
  expect(failureMessage((await append(s, A, 'blocked'))[0])).toMatch(/^database is locked: .*statementTimeoutMs/);
  await release();
  expect((await append(s, A, 'after'))[0]?.type).toBe('appended');
});

/** A TCP proxy to the test server that can stop passing bytes either way, as a stalled server would. */
async function stallingProxy(): Promise<{ readonly url: string; stall(on: boolean): void; close(): Promise<void> }> {
  const target = new URL(pgUrl());
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!stalled) to.write(chunk);
      });
      from.on('error', () => undefined);
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    stall: (on) => {
      stalled = on;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('a server that stops answering: an operation on an open connection fails once statementTimeoutMs and a second have passed, one on a new connection at connectTimeoutMs, and the store works again when it answers', async () => {
  const proxy = await stallingProxy();
  try {
    const s = await open({ connectionString: proxy.url, statementTimeoutMs: 300, connectTimeoutMs: 300 });
    expect((await append(s, A, 'first'))[0]?.type).toBe('appended');
    proxy.stall(true);
    // On the pooled connection the first append opened.
    const appendError = await rejection(append(s, A, 'stalled'));
    expect(isStoreError(appendError) && appendError.message).toMatch(/did not answer/);
    // That connection was closed: the read opens a new one, which the server never answers.
    const readError = await rejection(s.readChanges(A, asSequence(0), 100));
    expect(isStoreError(readError) && readError.message).toMatch(/timeout/);
    proxy.stall(false);
    expect((await append(s, A, 'after'))[0]?.type).toBe('appended');
    expect((await s.readChanges(A, asSequence(0), 100)).events.map((e) => e.summary)).toEqual(['first', 'after']);
  } finally {
    await store?.close();
    store = undefined;
    await proxy.close();
  }
});

test('an idle pooled connection that fails is reported through the logger, never console.warn', async () => {
  const appName = `ss_locks_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const url = new URL(pgUrl());
  url.searchParams.set('application_name', appName);
  const warnings: { message: string; fields: unknown }[] = [];
  const consoleWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const s = await open({ connectionString: url.toString(), logger: { warn: (fields, message) => warnings.push({ message, fields }), error: () => undefined } });
    // A connection into the pool, idle afterwards; then its backend is terminated.
    expect((await append(s, A, 'first'))[0]?.type).toBe('appended');
    const ended = await (async () => {
      foreign = new pg.Client({ connectionString: pgUrl() });
      await foreign.connect();
      return foreign.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
    })();
    expect(ended.rowCount).toBeGreaterThan(0);
    for (let waited = 0; warnings.length === 0 && waited < 200; waited += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(warnings).toEqual([{ message: expect.stringMatching(/idle connection failed/) as unknown, fields: { error: expect.any(String) as unknown } }]);
    expect(consoleWarn).not.toHaveBeenCalled();
  } finally {
    consoleWarn.mockRestore();
  }
});
