// The row cap pruned in the worker thread (worker/thread.ts): the same watermarks and journal as a
// batch on the store's own connection, nothing of a failed batch kept, every other operation
// held while a batch holds the write lock, and batches on the store's connection kept short.
import fs from 'node:fs';

import type { SessionKey } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/openSqliteStore.js';
import { openStoreDb } from '../src/db/openStoreDb.js';
import { OWN_CONNECTION_BATCH_ROWS, prune } from '../src/operations/prune.js';
import { createStoreWorker } from '../src/worker/storeWorker.js';
import type { StoreDb } from '../src/db/storeDb.js';
import { pruneRun } from './support/pruneRun.js';

const T0 = Date.UTC(2026, 10, 29);
const DAY = 24 * 60 * 60 * 1000;
const key = (i: number): SessionKey => `agent:s${i}:main` as SessionKey;
const watcherKey = (i: number): SessionKey => `agent:w${i}:main` as SessionKey;

let temps: TempDb[] = [];
afterEach(() => {
  for (const temp of temps) temp.remove();
  temps = [];
});
const tempFile = (): string => {
  const temp = tempDbPath();
  temps.push(temp);
  return temp.path;
};

/**
 * A file with `perSession` events in each of `sessions` sessions, round-robin (sequences
 * interleave), appended at `appendedAt`, and on every session one pending cursor notified of the
 * session's first event whose material is its second (so pruning past it journals `material_kept`).
 */
function seedFile(path: string, sessions: number, perSession: number, appendedAt = T0): void {
  const db = openStoreDb({ path });
  const st = db.statements;
  db.client.transaction(() => {
    const first = new Map<number, number>();
    const second = new Map<number, number>();
    for (let round = 0; round < perSession; round += 1) {
      for (let i = 0; i < sessions; i += 1) {
        const at = new Date(appendedAt).toISOString();
        const sequence = Number(st.insertEvent.run(key(i), 'compacted', 'system', null, `e${round}`, null, null, at, appendedAt).lastInsertRowid);
        st.writeAppendedHead.run({ sessionKey: key(i), head: sequence, notifies: 0, actor: null, at: appendedAt });
        if (round === 0) first.set(i, sequence);
        if (round === 1) second.set(i, sequence);
      }
    }
    const cursor = db.client.prepare('INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, 0, ?, ?, ?)');
    for (const [i, material] of second) cursor.run(watcherKey(i), key(i), first.get(i), material, T0);
  })();
  db.client.pragma('wal_checkpoint(TRUNCATE)');
  db.client.close();
}

/** What a prune leaves that a reader can see: retained events, heads, cursors and the journal (as a multiset: batches split it differently). */
function stateOf(path: string) {
  const db = openStoreDb({ path });
  try {
    const all = (query: string): unknown[] => db.client.prepare(query).all();
    return {
      events: all('SELECT sequence, session_key FROM events ORDER BY sequence'),
      heads: all('SELECT session_key, head, prune_watermark FROM heads ORDER BY session_key'),
      cursors: all('SELECT * FROM cursors ORDER BY watcher, target'),
      journal: all('SELECT watcher, target, type, reason, via, acked, notified, material, recorded_at FROM cursor_journal ORDER BY watcher, target, type, material'),
    };
  } finally {
    db.client.close();
  }
}

const capRequest = (batchSize: number, maxRows: number) => ({ now: T0, maxAgeMs: 30 * DAY, maxRows, batchSize });

test('worker batches leave the same events, watermarks and journal as batches on the store connection, and each batch is a consistent state', async () => {
  const viaWorker = tempFile();
  const viaConnection = tempFile();
  seedFile(viaWorker, 30, 20);
  seedFile(viaConnection, 30, 20);

  const store = openSqliteStore({ path: viaWorker });
  const sizes: number[] = [];
  await pruneRun(store, capRequest(150, 100), 10, (batch) => {
    sizes.push(batch.eventsDeleted);
    // Between batches: each session's watermark is exactly the highest sequence it lost.
    const { events, heads } = stateOf(viaWorker);
    const lowest = new Map<string, number>();
    for (const row of events as { sequence: number; session_key: string }[]) if (!lowest.has(row.session_key)) lowest.set(row.session_key, row.sequence);
    const deletedBelow = (events[0] as { sequence: number }).sequence;
    for (const head of heads as { session_key: string; prune_watermark: number }[]) {
      expect(head.prune_watermark).toBeLessThan(lowest.get(head.session_key) as number);
      if (head.prune_watermark > 0) expect(head.prune_watermark).toBeLessThan(deletedBelow);
    }
  });
  await store.close();
  expect(sizes).toEqual([150, 150, 150, 50]);

  const db: StoreDb = openStoreDb({ path: viaConnection });
  for (let batches = 1; !prune(db, capRequest(150, 100)).batch.done; batches += 1) if (batches === 10) throw new Error('the prune run was not done after 10 batches');
  db.client.close();

  const worker = stateOf(viaWorker);
  const connection = stateOf(viaConnection);
  expect(worker.events).toHaveLength(100);
  expect(worker.journal.length).toBeGreaterThan(0); // material_kept of the cursors whose material went
  expect(worker).toEqual(connection);
});

test('a worker batch that fails is rolled back whole and rejects naming the store; the next batch prunes', async () => {
  const path = tempFile();
  seedFile(path, 10, 10);
  const trigger = openStoreDb({ path });
  trigger.client.exec(`CREATE TRIGGER fail_prune BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'injected'); END`);
  trigger.client.close();
  const before = stateOf(path);

  const store = openSqliteStore({ path });
  await expect(store.prune(capRequest(1000, 50))).rejects.toMatchObject({
    _tag: 'StoreError',
    operation: 'prune',
    message: expect.stringMatching(/^prune worker: the batch failed and was rolled back \(SQLITE_CONSTRAINT_TRIGGER: injected\)$/),
  });
  expect(stateOf(path)).toEqual(before);

  const fix = openStoreDb({ path });
  fix.client.exec('DROP TRIGGER fail_prune');
  fix.client.close();
  await expect(store.prune(capRequest(1000, 50))).resolves.toMatchObject({ eventsDeleted: 50, done: true });
  await store.close();
});

test('operations called while worker batches hold the write lock wait for them: none meets the lock, none fails', async () => {
  const path = tempFile();
  seedFile(path, 200, 100);
  // A short busy timeout: an operation that met the worker's lock would block, then fail with SQLITE_BUSY.
  const store = openSqliteStore({ path, busyTimeoutMs: 20 });
  let pruning = true;
  // The watches go on while it prunes: their journal entries (the latest of live pairs, which
  // stay) may fill more than one journal window, so the run must pass journalAfter on to end.
  const prunes = pruneRun(store, capRequest(2000, 0), 20).finally(() => {
    pruning = false;
  });
  const writes: Promise<unknown>[] = [];
  for (let i = 0; pruning && i < 2000; i += 1) {
    writes.push(store.watch({ watcher: watcherKey(1000 + i), target: key(i % 200), now: T0 }));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(await prunes).toBe(10);
  await expect(Promise.all(writes)).resolves.toBeDefined();
  expect(writes.length).toBeGreaterThan(10);
  await store.close();
});

test('asked for worker-sized batches, a call deletes all its aged events on the store connection in parts of OWN_CONNECTION_BATCH_ROWS, a turn of the event loop between them', async () => {
  const path = tempFile();
  seedFile(path, 3, 400, T0 - 40 * DAY);
  const store = openSqliteStore({ path });
  const reader = openStoreDb({ path });
  const seen = new Set<number>();
  let polling = true;
  const poll = (): void => {
    if (!polling) return;
    seen.add((reader.client.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n);
    setImmediate(poll);
  };
  setImmediate(poll);
  const batch = await store.prune({ now: T0, maxAgeMs: 30 * DAY, maxRows: 100, batchSize: 10_000 });
  polling = false;
  reader.client.close();
  await store.close();
  // The whole batch in one call, as the facade counts it; the parts were seen between turns.
  expect(batch).toMatchObject({ eventsDeleted: 1200, done: true });
  expect([...seen].sort((a, b) => b - a)).toEqual([1200 - OWN_CONNECTION_BATCH_ROWS, 1200 - 2 * OWN_CONNECTION_BATCH_ROWS]);
  expect(fs.existsSync(path)).toBe(true);
});

test('a worker that cannot start rejects its batch and is no longer usable (the store then prunes on its own connection)', async () => {
  const path = tempFile();
  seedFile(path, 2, 5);
  const db = openStoreDb({ path });
  // A statement the worker cannot prepare: its start-up throws, as a driver that fails to load would.
  const statements = { ...db.statements, capBoundary: { ...db.statements.capBoundary, source: 'SELECT FROM nowhere' } } as StoreDb['statements'];
  const worker = createStoreWorker(() => db, { module: db.client.workerModule, path, busyTimeoutMs: 100, synchronous: 'NORMAL', statements });
  expect(worker.usable).toBe(true);
  await expect(worker.cap({ maxRows: 0, limit: 10 }, () => ({ heads: [], journal: [] }))).rejects.toThrow('prune worker: the worker thread stopped during a batch');
  expect(worker.usable).toBe(false);
  await expect(worker.cap({ maxRows: 0, limit: 10 }, () => ({ heads: [], journal: [] }))).rejects.toThrow('prune worker: not running');
  await worker.close();
  expect((db.client.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBe(10);
  db.client.close();
});

test('asked for worker-sized batches, each part on the store connection resumes the journal window where the previous part stopped, and the call says where the next resumes', async () => {
  const path = tempFile();
  const store = openSqliteStore({ path });
  const target = key(0);
  // 300 removable entries (150 ended watches), then 600 kept ones (the latest of live pairs),
  // then 4 removable ones: more than one OWN_CONNECTION_BATCH_ROWS window of kept entries.
  for (let i = 0; i < 150; i += 1) {
    await store.watch({ watcher: watcherKey(i), target, now: T0 });
    await store.unwatch(watcherKey(i), target, T0);
  }
  for (let i = 1000; i < 1600; i += 1) await store.watch({ watcher: watcherKey(i), target, now: T0 });
  for (let i = 2000; i < 2002; i += 1) {
    await store.watch({ watcher: watcherKey(i), target, now: T0 });
    await store.unwatch(watcherKey(i), target, T0);
  }
  expect(await store.readCursorJournal()).toHaveLength(904);
  const first = await store.prune({ now: T0, maxAgeMs: 30 * DAY, maxRows: 0, batchSize: 10_000 });
  // One call, parts of 500 journal entries: the first part's window took the 300 ended ones, the
  // next part's the rest (kept ones and the last 4), so the call reaches the end of the journal.
  expect(first.done).toBe(true);
  const left = await store.readCursorJournal();
  await store.close();
  expect(left).toHaveLength(600);
  expect(left.every((entry) => entry.event.type === 'watch_started')).toBe(true);
});

test('checkpoints and cap batches share the one worker thread, one job at a time, in call order', async () => {
  const path = tempFile();
  seedFile(path, 2, 5);
  const db = openStoreDb({ path });
  const worker = createStoreWorker(() => db, { module: db.client.workerModule, path, busyTimeoutMs: 100, synchronous: 'NORMAL', statements: db.statements });
  const order: string[] = [];
  const first = worker.checkpoint().then(() => order.push('checkpoint'));
  const capped = worker.cap({ maxRows: 4, limit: 100 }, () => ({ heads: [], journal: [] })).then((batch) => {
    order.push('cap');
    return batch;
  });
  const second = worker.checkpoint().then(() => order.push('checkpoint'));
  expect((await capped).deleted).toBe(6);
  await Promise.all([first, second]);
  expect(order).toEqual(['checkpoint', 'cap', 'checkpoint']);
  expect(worker.usable).toBe(true);
  await worker.close();
  db.client.close();
});
