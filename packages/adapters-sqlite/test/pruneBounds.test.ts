// What keeps one prune batch short on SQLite: it touches at most SESSIONS_PER_BATCH sessions
// (the pages it writes grow with them), it never checkpoints the WAL inside its commit, it finds
// the row cap without counting the log, and the store checkpoints the WAL between batches.
import { asSequence, type SessionKey } from '@session-state/domain';

import fs from 'node:fs';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { WAL_FRAMES_BEFORE_WAIT } from '../src/worker/walBound.js';
import { openSqliteStore } from '../src/openSqliteStore.js';
import { openStoreDb } from '../src/db/openStoreDb.js';
import { prune, SESSIONS_PER_BATCH } from '../src/operations/prune.js';
import type { StoreDb } from '../src/db/storeDb.js';

const T0 = Date.UTC(2026, 10, 29);
const DAY = 24 * 60 * 60 * 1000;

let temp: TempDb;
let db: StoreDb;
beforeEach(() => {
  temp = tempDbPath();
  db = openStoreDb({ path: temp.path });
});
afterEach(() => {
  db.client.close();
  temp.remove();
});

const key = (i: number): SessionKey => `agent:s${i}:main` as SessionKey;

/** Appends `perSession` events to each of `sessions` sessions, round-robin (so sequences interleave). */
function seed(sessions: number, perSession: number, appendedAt = T0): void {
  const st = db.statements;
  db.client.transaction(() => {
    for (let round = 0; round < perSession; round += 1) {
      for (let i = 0; i < sessions; i += 1) {
        const at = new Date(appendedAt).toISOString();
        const sequence = Number(st.insertEvent.run(key(i), 'compacted', 'system', null, `e${round}`, null, null, at, appendedAt).lastInsertRowid);
        st.writeAppendedHead.run({ sessionKey: key(i), head: sequence, notifies: 0, actor: null, at: appendedAt });
      }
    }
  })();
}

const retained = (): number => (db.client.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
const watermarks = (): Map<string, number> =>
  new Map((db.client.prepare('SELECT session_key, prune_watermark FROM heads').all() as { session_key: string; prune_watermark: number }[]).map((r) => [r.session_key, r.prune_watermark]));

test('a row-cap batch over more sessions than SESSIONS_PER_BATCH stops at that many sessions and reports not done', () => {
  const sessions = SESSIONS_PER_BATCH + 50;
  seed(sessions, 2);
  const { batch } = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 10 * sessions });
  expect(batch).toMatchObject({ eventsDeleted: SESSIONS_PER_BATCH, done: false });
  expect(retained()).toBe(2 * sessions - SESSIONS_PER_BATCH);
  // The lowest sequences went, and exactly the sessions they belong to got a prune watermark.
  const raised = [...watermarks()].filter(([, w]) => w > 0).map(([k]) => k);
  expect(raised.sort()).toEqual(Array.from({ length: SESSIONS_PER_BATCH }, (_, i) => key(i)).sort());
});

test('an age batch is bounded by sessions too, and repeated batches still delete everything aged', () => {
  const sessions = SESSIONS_PER_BATCH + 10;
  seed(sessions, 1, T0 - 2 * DAY);
  const first = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 1_000_000, batchSize: 10_000 }).batch;
  expect(first).toMatchObject({ eventsDeleted: SESSIONS_PER_BATCH, done: false });
  const second = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 1_000_000, batchSize: 10_000 }).batch;
  expect(second).toMatchObject({ eventsDeleted: 10, done: true });
  expect(retained()).toBe(0);
});

test('many rows of few sessions are not cut by the session bound', () => {
  seed(3, 200);
  const { batch } = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 500 });
  expect(batch.eventsDeleted).toBe(500);
  // Round-robin: the lowest 500 sequences hold 167, 167 and 166 events of the three sessions.
  const heads = db.client.prepare('SELECT head, prune_watermark FROM heads ORDER BY session_key').all() as { head: number; prune_watermark: number }[];
  expect(heads.every((h) => h.prune_watermark <= h.head)).toBe(true);
  expect(Math.max(...heads.map((h) => h.prune_watermark))).toBe(500);
});

test('the WAL auto-checkpoint setting is held off only during the batch and restored after it, even when it fails', () => {
  db.client.pragma('wal_autocheckpoint = 777');
  seed(2, 5);
  prune(db, { now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 3 });
  expect(db.client.pragma('wal_autocheckpoint')).toBe(777);
  db.client.exec(`CREATE TRIGGER fail_prune BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'injected'); END`);
  expect(() => prune(db, { now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 3 })).toThrow('injected');
  expect(db.client.pragma('wal_autocheckpoint')).toBe(777);
  expect(retained()).toBe(7);
});

test('a batch reports every row it removed, however few, for the checkpoint schedule (CHECKPOINT_AFTER_PAGES)', () => {
  seed(1, 5);
  expect(prune(db, { now: T0, maxAgeMs: DAY, maxRows: 5, batchSize: 1000 })).toMatchObject({ batch: { eventsDeleted: 0, done: true }, rowsRemoved: 0 });
  // One row: a batch at the app's smallest size still counts towards the next checkpoint.
  expect(prune(db, { now: T0, maxAgeMs: DAY, maxRows: 4, batchSize: 1000 })).toMatchObject({ batch: { eventsDeleted: 1, done: true }, rowsRemoved: 1 });
  expect(watermarks().get(key(0))).toBe(asSequence(1));
});

test('the row cap deletes the lowest sequences up to the cap in one run, stops at the batch size, and is done exactly at the cap', () => {
  seed(3, 10); // sequences 1..30, round-robin over three sessions
  const first = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 12, batchSize: 10 });
  expect(first).toMatchObject({ batch: { eventsDeleted: 10, done: false }, rowsRemoved: 10 });
  const second = prune(db, { now: T0, maxAgeMs: DAY, maxRows: 12, batchSize: 10 });
  expect(second).toMatchObject({ batch: { eventsDeleted: 8, done: true } });
  expect((db.client.prepare('SELECT min(sequence) AS m FROM events').get() as { m: number }).m).toBe(19);
  expect(retained()).toBe(12);
  expect(prune(db, { now: T0, maxAgeMs: DAY, maxRows: 12, batchSize: 10 })).toMatchObject({ batch: { eventsDeleted: 0, done: true }, rowsRemoved: 0 });
});

test('back-to-back prune calls with no turn between them (a CLI loop) keep the WAL bounded: it starts over once WAL_FRAMES_BEFORE_WAIT pages are written', async () => {
  seed(400, 50); // 20,000 events round-robin: every 400-row batch touches all 400 sessions
  db.client.pragma('wal_checkpoint(TRUNCATE)');
  db.client.close();
  const store = openSqliteStore({ path: temp.path });
  let batches = 0;
  for (;;) {
    // Awaited in a loop: only microtasks run between the calls, never the store's setImmediate.
    const batch = await store.prune({ now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 400 });
    batches += 1;
    if (batch.done) break;
  }
  const walBytes = fs.statSync(`${temp.path}-wal`).size;
  await store.close();
  db = openStoreDb({ path: temp.path });
  expect(batches).toBe(50);
  expect(retained()).toBe(0);
  // Measured: 29 MB when the WAL never starts over (checkpoints always beside a batch); waiting
  // for them at WAL_FRAMES_BEFORE_WAIT pages keeps it near that many pages (plus one batch).
  expect(walBytes).toBeLessThan((WAL_FRAMES_BEFORE_WAIT + 1000) * 4096);
});

test('the journal cap, counted only up to one past the batch, still reports not done while entries beyond maxRows remain', () => {
  // Ten entries of pairs that have no cursor (all removable), recorded now (none aged).
  db.client.transaction(() => {
    for (let i = 0; i < 10; i += 1) {
      db.statements.insertJournal.run({ watcher: key(i), target: key(100), type: 'watch_ended', reason: 'expired', via: null, acked: 0, notified: 0, material: 0, recordedAt: T0, takenUntil: null, ambient: 0 });
    }
  })();
  const entries = (): number => (db.client.prepare('SELECT count(*) AS n FROM cursor_journal').get() as { n: number }).n;
  const request = { now: T0, maxAgeMs: DAY, maxRows: 2, batchSize: 3 };
  const sizes: number[] = [];
  for (;;) {
    const { batch } = prune(db, request);
    sizes.push(entries());
    if (batch.done) break;
  }
  expect(sizes).toEqual([7, 4, 2]);
});
