// Migration 5 drops the fan_outs table of the paged fan-out: a version-4 file with a record's
// fan-out a crash cut short opens with the cursor rows and journal the memory store has after the
// same calls (the head's notify marks give the pending cursors their material, as before).
import Database from 'better-sqlite3';
import { journalParams } from '@session-state/adapters-sql-common';
import { createMemoryStore } from '@session-state/adapters-memory';
import { decodeRecordInput, type AppendRequest, type CursorRow, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { MIGRATIONS, openSqliteStore } from '../src/index.js';
import { betterSqlite3Client } from '../src/driver/betterSqlite3Client.js';
import { migrate } from '../src/migrations/migrate.js';

const TARGET = 'agent:t:main' as SessionKey;
const WRITER = 'agent:writer:main' as SessionKey;
const W0 = 'agent:w0:main' as SessionKey;
const W1 = 'agent:w1:main' as SessionKey;
const W4 = 'agent:w4:main' as SessionKey;
const W5 = 'agent:w5:main' as SessionKey;

/** The records, in order: [actor, appendedAt]; the last one's fan-out is cut after W4. */
const RECORDS: readonly [SessionKey, number][] = [
  [WRITER, 10],
  [W1, 20],
  [W1, 30],
];

const request = ([actor, at]: readonly [SessionKey, number]): AppendRequest => {
  const decoded = decodeRecordInput({ sessionKey: TARGET, kind: 'goal_changed', actorType: 'agent', actorSessionKey: actor, summary: `at ${at}` });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt: at };
};

/** W0 and W1 watch from the start, W4 and W5 after the second record; the last record when `last`. */
async function play(store: StateStore, last: boolean): Promise<void> {
  for (const watcher of [W0, W1]) await store.watch({ watcher, target: TARGET, now: 1 });
  for (const record of RECORDS.slice(0, 2)) await store.append([request(record)]);
  for (const watcher of [W4, W5]) await store.watch({ watcher, target: TARGET, now: 25 });
  if (last) await store.append([request(RECORDS[2] as [SessionKey, number])]);
}

const rowOf = (rows: readonly CursorRow[], watcher: SessionKey): CursorRow => {
  const row = rows.find((r) => r.watcher === watcher);
  if (row === undefined) throw new Error(`no cursor of ${watcher}`);
  return row;
};

let temp: TempDb;
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(() => temp.remove());

test('a version-4 file: an owed fan-out raises the idle cursors after its cut, and the rows and journal are the memory store’s', async () => {
  const memory = createMemoryStore();
  await play(memory, true);
  const expectedCursors = await memory.listCursors();
  const expectedJournal = await memory.readCursorJournal();
  const before = createMemoryStore();
  await play(before, false);
  const beforeLast = await before.listCursors();

  const old = new Database(temp.path);
  try {
    expect(migrate(betterSqlite3Client(old), MIGRATIONS.slice(0, 4))).toEqual([1, 2, 3, 4]);
    const event = old.prepare(
      "INSERT INTO events (sequence, session_key, kind, actor_type, actor_session_key, summary, occurred_at, appended_at) VALUES (?, ?, 'goal_changed', 'agent', ?, ?, ?, ?)",
    );
    for (const [i, [actor, at]] of RECORDS.entries()) event.run(i + 1, TARGET, actor, `at ${at}`, new Date(at).toISOString(), at);
    // The marks after the three records: the newest notifying event (3, by W1) and the newest of another actor (1).
    old.prepare('INSERT INTO heads VALUES (?, 3, 0, 3, ?, 30, 1, 10)').run(TARGET, W1);
    const cursor = old.prepare('INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, ?, ?, ?, ?)');
    // W0 and W1 as the first record wrote them (the later raises were the marks'); W4 as the third
    // record's first page wrote it; W5 as its watch left it, after the cut.
    for (const w of [W0, W1]) cursor.run(w, TARGET, 0, 1, 1, 10);
    const w4 = rowOf(expectedCursors, W4);
    cursor.run(W4, TARGET, w4.acked, w4.notified, w4.material, w4.touchedAt);
    const w5 = rowOf(beforeLast, W5);
    cursor.run(W5, TARGET, w5.acked, w5.notified, w5.material, w5.touchedAt);
    const cut = old.prepare('SELECT rowid FROM cursors WHERE watcher = ?').pluck().get(W4);
    old.prepare('INSERT INTO fan_outs (sequence, target, after_rowid) VALUES (3, ?, ?)').run(TARGET, cut);
    // Every journal entry but the one the cut left unwritten.
    const journal = old.prepare(
      'INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at, taken_until) VALUES (@watcher, @target, @type, @reason, @via, @acked, @notified, @material, @recordedAt, @takenUntil)',
    );
    const owed = expectedJournal.filter((e) => e.watcher === W5 && e.event.type === 'notice_raised');
    expect(owed).toHaveLength(1);
    for (const entry of expectedJournal) if (!owed.includes(entry)) journal.run(journalParams(entry));
  } finally {
    old.close();
  }

  const store = openSqliteStore({ path: temp.path });
  try {
    const shape = (rows: readonly CursorRow[]) => rows.map((r) => [r.watcher, r.acked, r.notified, r.material, r.touchedAt, r.takenUntil ?? null]);
    expect(shape(await store.listCursors())).toEqual(shape(expectedCursors));
    // W0's material comes from the marks, W5's row from the owed fan-out.
    expect([rowOf(expectedCursors, W0).material, rowOf(expectedCursors, W5).notified]).toEqual([3, 3]);
    const story = (entries: Awaited<ReturnType<StateStore['readCursorJournal']>>) => entries.map((e) => [e.watcher, e.event, e.acked, e.notified, e.material, e.recordedAt]);
    expect(story(await store.readCursorJournal())).toEqual(story(expectedJournal));
    const tables = new Database(temp.path, { readonly: true });
    try {
      expect(tables.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'fan_outs'").pluck().get()).toBe(0);
    } finally {
      tables.close();
    }
  } finally {
    await store.close();
    await memory.close();
    await before.close();
  }
});
