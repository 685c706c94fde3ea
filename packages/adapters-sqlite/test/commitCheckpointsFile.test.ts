// Everyday writes on a file store are checkpointed by the worker thread, not inside a commit, and
// the WAL stays bounded under appends that never pause (walBound.ts).
// (A loop of awaited store calls never lets the event loop turn: no pause, no idle checkpoint, in it.)
import fs from 'node:fs';

import Database from 'better-sqlite3';
import type { AppendRequest, SessionKey, StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { WAL_FRAMES_BEFORE_WAIT } from '../src/worker/walBound.js';
import { appendRequest } from './support/appendRequest.js';

const TARGET = 'agent:target:main' as SessionKey;
const WATCHER = 'agent:watcher:main' as SessionKey;

const request = (summary: string): AppendRequest => appendRequest({ sessionKey: TARGET, summary });

let temp: TempDb;
let store: StateStore;
beforeEach(async () => {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path });
  await store.watch({ watcher: WATCHER, target: TARGET, now: 0 });
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

/** Events in the database file itself, without its WAL: what checkpoints have copied back. */
function eventsInDatabaseFile(): number {
  const copy = `${temp.path}.copy`;
  fs.copyFileSync(temp.path, copy);
  try {
    const db = new Database(copy, { readonly: true });
    try {
      // Before the first checkpoint the file does not even hold the tables (the migration is in the WAL).
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'events'").get() as { n: number };
      return tables.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(copy, { force: true });
  }
}

test('appends past SQLite auto-checkpoint threshold stay out of the database file until the writes pause, then the worker copies them back', async () => {
  // Each append writes several frames (event, index, head, cursor pages): 300 pass 1,000 frames,
  // where SQLite's auto-checkpoint would have copied the WAL back inside a commit.
  for (let i = 0; i < 300; i += 1) await store.append([request(`turn ${i}`)]);
  expect(eventsInDatabaseFile()).toBe(0);
  let copied = 0;
  for (let tries = 0; copied < 300 && tries < 500; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    copied = eventsInDatabaseFile();
  }
  expect(copied).toBe(300);
});

test('appends that never pause keep the WAL within its bound (the worker alone would never let it start over)', async () => {
  const appends = 6000;
  for (let i = 0; i < appends; i += 1) await store.append([request(`turn ${i}`)]);
  // The WAL file keeps its high-water mark: 32 header bytes, then 24 + page size per frame.
  const pageSize = 4096;
  const frames = (fs.statSync(`${temp.path}-wal`).size - 32) / (24 + pageSize);
  // Each append writes several frames (event, index, head, cursor pages): unbounded, the WAL
  // would hold them all. The bound is WAL_FRAMES_BEFORE_WAIT plus what commits add during a checkpoint.
  expect(appends * 3).toBeGreaterThan(3 * WAL_FRAMES_BEFORE_WAIT);
  expect(frames).toBeLessThan(3 * WAL_FRAMES_BEFORE_WAIT);
});

test('large commits (records each raising 300 idle watchers) keep the WAL within the same one bound', async () => {
  // A record on pending watchers writes no cursor (logMaterial.ts), so each record goes to a
  // target of its own whose watchers are all idle, seeded by plain SQL.
  const appends = 300;
  const targetOf = (i: number) => `agent:t${i}:main`;
  await store.close();
  const seed = new Database(temp.path);
  const insert = seed.prepare('INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, 0, 0, 0, 0)');
  seed.transaction(() => {
    for (let t = 0; t < appends; t += 1) for (let w = 0; w < 300; w += 1) insert.run(`agent:w${t}x${w}:main`, targetOf(t));
  })();
  seed.close();
  store = openSqliteStore({ path: temp.path });
  // The WAL's frames after each append, read on a connection of its own.
  const probe = new Database(temp.path);
  const walFrames = (): number => (probe.prepare('PRAGMA wal_checkpoint(NOOP)').raw().get() as number[])[1] ?? 0;
  let largest = 0;
  // An append's frames: the median growth seen (a checkpoint's WAL restart between two reads shows less).
  const deltas: number[] = [];
  try {
    for (let i = 0; i < appends; i += 1) {
      const before = walFrames();
      await store.append([appendRequest({ sessionKey: targetOf(i), summary: `turn ${i}` })]);
      const after = walFrames();
      if (after > before) deltas.push(after - before);
      // After what the watches left in the WAL is copied back (the first wait), in steady state.
      if (i >= 50) largest = Math.max(largest, after);
    }
  } finally {
    probe.close();
  }
  const perAppend = deltas.sort((x, y) => x - y)[Math.floor(deltas.length / 2)] ?? 0;
  // Large: together they would fill the bound several times.
  expect(perAppend * appends).toBeGreaterThan(3 * WAL_FRAMES_BEFORE_WAIT);
  // The bound, plus the commit that passed it.
  expect(largest).toBeLessThan(WAL_FRAMES_BEFORE_WAIT + 2 * perAppend);
});
