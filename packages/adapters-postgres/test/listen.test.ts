// Cross-process signals: an append that made a cursor pending signals its target and watcher to
// every listener of another store handle (any gateway's) once it commits, and so do a reset, a session delete and cursor
// expiry for the cursors they removed; other appends (a repeat on a pending cursor included)
// signal nothing; a lost listening connection is reported, re-established, and followed by a
// resync.
import type { CursorSignalListener, CursorSignalSubscription, SessionKey, StoreError } from '@session-state/domain';
import { dropSchema, pgUrl, uniqueSchema, withClient } from '@session-state/testkit';
import pg from 'pg';

import { openPostgresStore, type PostgresStore } from '../src/index.js';
import { LISTEN_APPLICATION_NAME, listenForSignals } from '../src/signals/listen.js';
import { humanTurn, key, request } from './support/commands.js';

jest.setTimeout(30_000);

const W = key('agent:w:main');
const T = key('agent:t:main');
const U = key('agent:u:main');

/** A listener that records what it was told, and waits for it. */
class Recorder implements CursorSignalListener {
  readonly targets: string[] = [];
  /** Per signal: its target and the watchers it named (`*` when it named none). */
  readonly signals: string[] = [];
  resyncs = 0;
  readonly failures: StoreError[] = [];
  private waiters: Array<() => void> = [];

  targetsChanged(targets: readonly SessionKey[], watchers?: readonly SessionKey[]): void {
    this.targets.push(...targets);
    for (const target of targets) this.signals.push(`${target} <- ${watchers === undefined ? '*' : [...watchers].sort().join(',')}`);
    this.wakeWaiters();
  }
  resync(): void {
    this.resyncs += 1;
    this.wakeWaiters();
  }
  failed(error: StoreError): void {
    this.failures.push(error);
    this.wakeWaiters();
  }
  /** Resolves once `done()` holds (checked after every callback); rejects after 10 s. */
  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the expected signal never came')), 10_000);
      this.waiters.push(() => {
        if (!done()) return;
        clearTimeout(timer);
        resolve();
      });
    });
  }
  private wakeWaiters(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

let schema: string;
let writer: PostgresStore;
let listener: PostgresStore;
let subscription: CursorSignalSubscription | undefined;

beforeEach(async () => {
  schema = uniqueSchema('listen');
  writer = await openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 2 });
  listener = await openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 2 });
});

afterEach(async () => {
  await subscription?.close();
  subscription = undefined;
  await writer.close();
  await listener.close();
  await dropSchema(schema);
});

async function listenWith(recorder: Recorder): Promise<CursorSignalSubscription> {
  if (listener.listen === undefined) throw new Error('the PostgreSQL store must offer listen');
  subscription = await listener.listen(recorder);
  return subscription;
}

test('listening starts with one resync, then an append that asked for a notice in another gateway signals its target once it commits', async () => {
  const recorder = new Recorder();
  await listenWith(recorder);
  expect(recorder.resyncs).toBe(1);
  await writer.watch({ watcher: W, target: T, now: 1 });
  const [outcome] = await writer.append([request(humanTurn(T))]);
  expect(outcome?.type === 'appended' && outcome.notices.length).toBe(1);
  await recorder.until(() => recorder.targets.includes(T));
  expect(recorder.targets).toEqual([T]);
  expect(recorder.failures).toEqual([]);
});

test('appends that ask for no notice signal nothing: unwatched, log-only, the watcher’s own, a duplicate', async () => {
  const recorder = new Recorder();
  await listenWith(recorder);
  await writer.watch({ watcher: W, target: T, now: 1 });
  await writer.append([request(humanTurn(U))]); // nobody watches U
  await writer.append([request(humanTurn(T, { kind: 'compacted', actorType: 'agent', actorSessionKey: 'agent:x:main' }))]); // log-only
  await writer.append([request(humanTurn(T, { actorType: 'agent', actorSessionKey: W }))]); // the watcher's own turn
  await writer.append([request(humanTurn(U, { dedupeKey: 'k' }))]);
  await writer.append([request(humanTurn(T, { dedupeKey: 'k' }))]); // a duplicate: nothing written
  // A sentinel: the only signal that may arrive is this one.
  await writer.watch({ watcher: W, target: U, now: 1 });
  await writer.append([request(humanTurn(U))]);
  await recorder.until(() => recorder.targets.length > 0);
  expect(recorder.targets).toEqual([U]);
});

test('a signal names the watchers whose cursors it concerns: the newly pending ones of an append, the removed ones of a reset', async () => {
  const V = key('agent:v:main');
  const recorder = new Recorder();
  await listenWith(recorder);
  await writer.watch({ watcher: W, target: T, now: 1 });
  await writer.watch({ watcher: V, target: T, now: 1 });
  await writer.append([request(humanTurn(T))]);
  await recorder.until(() => recorder.signals.length > 0);
  expect(recorder.signals).toEqual([`${T} <- ${[V, W].sort().join(',')}`]);

  recorder.signals.length = 0;
  await writer.resetWatcher(W, 2);
  await recorder.until(() => recorder.signals.length > 0);
  expect(recorder.signals).toEqual([`${T} <- ${W}`]);
});

test('a repeat record on a pending cursor sends no NOTIFY; after a drain the next record sends one again (counted on a LISTEN connection)', async () => {
  const payloads: string[] = [];
  const raw = new pg.Client({ connectionString: pgUrl() });
  await raw.connect();
  try {
    raw.on('notification', (message) => payloads.push(message.payload ?? ''));
    await raw.query(`LISTEN "session_state:${schema}"`);
    await writer.watch({ watcher: W, target: T, now: 1 });
    await writer.watch({ watcher: W, target: U, now: 1 });
    const [first] = await writer.append([request(humanTurn(T))]);
    // Two repeats: one alone, one in a batch with another session's append.
    const [repeat] = await writer.append([request(humanTurn(T))]);
    expect(repeat?.type === 'appended' && repeat.notices.map((notice) => notice.reason)).toEqual(['repeat']);
    await writer.append([request(humanTurn(T)), request(humanTurn(U))]);
    // A sentinel on its own connection's order: every earlier commit's notification precedes it.
    await withClient((client) => client.query('SELECT pg_notify($1, $2)', [`session_state:${schema}`, 'sentinel']));
    await waitFor(() => payloads.includes('sentinel'));
    expect(payloads).toEqual([`${T} ${W}`, `${U} ${W}`, 'sentinel']);

    // The drain acknowledges the first notice; more had arrived, so it reopens (in the drainer,
    // no signal); the drain after that leaves the cursor idle, and the next record signals.
    const notified = first?.type === 'appended' ? first.notices[0]?.notified : undefined;
    if (notified === undefined) throw new Error('the first append asked for no notice');
    const [reopened] = await writer.drain({ watcher: W, acks: [{ target: T, notified }], now: 3 });
    if (reopened?.result !== 'acked' || reopened.reopened === undefined) throw new Error('the drain did not reopen');
    await writer.drain({ watcher: W, acks: [{ target: T, notified: reopened.reopened.notified }], now: 4 });
    payloads.length = 0;
    await writer.append([request(humanTurn(T))]);
    await withClient((client) => client.query('SELECT pg_notify($1, $2)', [`session_state:${schema}`, 'sentinel']));
    await waitFor(() => payloads.includes('sentinel'));
    expect(payloads).toEqual([`${T} ${W}`, 'sentinel']);
  } finally {
    await raw.end();
  }
});

test('a store handle does not signal its own commits to its own listener (its caller has their outcomes); another handle’s it does', async () => {
  const own = new Recorder();
  const sub = await writer.listen!(own);
  try {
    await writer.watch({ watcher: W, target: T, now: 1 });
    await writer.watch({ watcher: W, target: U, now: 1 });
    await writer.append([request(humanTurn(T))]);
    await writer.resetWatcher(W, 2);
    // The sentinel, through the other handle: its signal comes after any the writer would have sent.
    await listener.watch({ watcher: W, target: U, now: 3 });
    await listener.append([request(humanTurn(U))]);
    await own.until(() => own.targets.length > 0);
    expect(own.signals).toEqual([`${U} <- ${W}`]);
  } finally {
    await sub.close();
  }
});

test('a reset, a session delete and a cursor expiry each signal the targets of the cursors they removed, once per target', async () => {
  const V = key('agent:v:main');
  const recorder = new Recorder();
  await listenWith(recorder);
  // W watches T and U; V watches T. Watching signals nothing.
  for (const [watcher, target] of [[W, T], [W, U], [V, T]] as const) await writer.watch({ watcher, target, now: 1 });

  expect(await writer.resetWatcher(W, 1)).toHaveLength(2);
  await recorder.until(() => recorder.targets.length >= 2);
  expect([...recorder.targets].sort()).toEqual([T, U].sort());

  recorder.targets.length = 0;
  await writer.watch({ watcher: W, target: U, now: 1 });
  expect((await writer.deleteSession(T, 1)).removedCursors).toEqual([{ watcher: V, target: T }]);
  await recorder.until(() => recorder.targets.length >= 1);
  expect(recorder.targets).toEqual([T]);

  // Expiry: W's cursor on U, idle since time 1, is older than the age limit.
  recorder.targets.length = 0;
  const batch = await writer.prune({ now: 1_000, maxAgeMs: 10, maxRows: 1_000, batchSize: 100 });
  expect(batch.expiredCursors).toEqual([{ watcher: W, target: U }]);
  await recorder.until(() => recorder.targets.length >= 1);
  expect(recorder.targets).toEqual([U]);

  // Nothing removed, nothing signalled: the sentinel's signal is the only one that follows.
  recorder.targets.length = 0;
  expect(await writer.resetWatcher(W, 2_000)).toEqual([]);
  await writer.watch({ watcher: V, target: U, now: 2_000 });
  await writer.append([request(humanTurn(U))]);
  await recorder.until(() => recorder.targets.length > 0);
  expect(recorder.targets).toEqual([U]);
});

test('an unwatch and an acknowledging read signal their target; an unwatch of no cursor and a read that acknowledged nothing signal nothing', async () => {
  const recorder = new Recorder();
  await listenWith(recorder);
  await writer.watch({ watcher: W, target: T, now: 1 });
  await writer.watch({ watcher: W, target: U, now: 1 });

  expect(await writer.unwatch(W, T, 2)).toEqual({ removed: true });
  await recorder.until(() => recorder.targets.length >= 1);
  expect(recorder.targets).toEqual([T]);

  recorder.targets.length = 0;
  const [appended] = await writer.append([request(humanTurn(U))]);
  await recorder.until(() => recorder.targets.length >= 1);
  expect(recorder.targets).toEqual([U]);
  const head = appended?.type === 'appended' ? appended.event.sequence : -1;
  recorder.targets.length = 0;
  expect(await writer.acknowledgeRead({ watcher: W, target: U, since: 0 as never, through: head as never, now: 3 })).toMatchObject({ acknowledged: true });
  await recorder.until(() => recorder.targets.length >= 1);
  expect(recorder.targets).toEqual([U]);

  // Nothing removed or acknowledged, nothing signalled: the sentinel's signal is the only one that follows.
  recorder.targets.length = 0;
  expect(await writer.unwatch(W, T, 4)).toEqual({ removed: false });
  expect(await writer.acknowledgeRead({ watcher: W, target: U, since: 0 as never, through: head as never, now: 4 })).toEqual({ acknowledged: false });
  await writer.append([request(humanTurn(U))]);
  await recorder.until(() => recorder.targets.length > 0);
  expect(recorder.targets).toEqual([U]);
});

test('a rolled-back append signals nothing', async () => {
  const recorder = new Recorder();
  await listenWith(recorder);
  await writer.watch({ watcher: W, target: T, now: 1 });
  await withClient(async (client) => {
    await client.query('BEGIN');
    await client.query(`SELECT pg_notify($1, $2)`, [`session_state:${schema}`, T]);
    await client.query('ROLLBACK');
  });
  await writer.watch({ watcher: W, target: U, now: 1 });
  await writer.append([request(humanTurn(U))]);
  await recorder.until(() => recorder.targets.length > 0);
  expect(recorder.targets).toEqual([U]);
});

test('a killed listening connection is reported, re-established and followed by a resync; signals flow again', async () => {
  const recorder = new Recorder();
  await listenWith(recorder);
  await withClient((client) =>
    client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [
      LISTEN_APPLICATION_NAME,
    ]),
  );
  await recorder.until(() => recorder.failures.length > 0 && recorder.resyncs >= 2);
  expect(recorder.failures[0]?.operation).toBe('listen');
  await writer.watch({ watcher: W, target: T, now: 1 });
  await writer.append([request(humanTurn(T))]);
  await recorder.until(() => recorder.targets.includes(T));
});

test('after close no callback runs, and closing twice is harmless', async () => {
  const recorder = new Recorder();
  const sub = await listenWith(recorder);
  await sub.close();
  await sub.close();
  await writer.watch({ watcher: W, target: T, now: 1 });
  await writer.append([request(humanTurn(T))]);
  // Let a notification (if one were still delivered) arrive: a second listener proves it was sent
  // (on U: T's cursor is pending already, and a repeat signals nothing).
  const other = new Recorder();
  const second = await listener.listen!(other);
  await writer.watch({ watcher: W, target: U, now: 1 });
  await writer.append([request(humanTurn(U))]);
  await other.until(() => other.targets.length > 0);
  await second.close();
  expect(recorder.targets).toEqual([]);
});

test('listening on an unreachable server rejects with a StoreError naming listen, and calls nothing', async () => {
  const recorder = new Recorder();
  await expect(
    listenForSignals({ config: { connectionString: 'postgres://postgres@127.0.0.1:1/test' }, channel: 'session_state:x' }, recorder),
  ).rejects.toMatchObject({ _tag: 'StoreError', operation: 'listen' });
  expect(recorder.resyncs).toBe(0);
  expect(recorder.failures).toEqual([]);
});

/** Polls `done` every 10 ms; rejects after 10 s. */
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('the expected notification never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
