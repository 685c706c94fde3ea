// A target with many watchers: a record that only raises material on pending cursors writes no
// cursor row and no journal entry (the head's notify marks hold it), and a record that notifies
// more cursors than FAN_OUT_INLINE_CURSORS steps them in pages, each its own transaction, the event
// loop turning between them, with the same rows, journal and notices as the memory store's one
// pass; a fan-out a crash cut short is finished by the restart scan. Cursor writes and journal
// entries are counted by triggers in the file, read between event-loop turns on a connection of
// the test's own (which sees only committed pages).
import Database from 'better-sqlite3';
import { decodeRecordInput, type AppendOutcome, type AppendRequest, type SessionKey, type StateStore } from '@session-state/domain';
import { createMemoryStore } from '@session-state/adapters-memory';
import { restartScanAll, tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { FAN_OUT_INLINE_CURSORS } from '../src/operations/fanOut.js';

const TARGET = 'agent:t:main' as SessionKey;
const WRITER = 'agent:writer:main' as SessionKey;
const watcherOf = (i: number) => `agent:w${String(i).padStart(5, '0')}:main` as SessionKey;

function record(summary: string, at: number, actor: SessionKey = WRITER): AppendRequest {
  const decoded = decodeRecordInput({ sessionKey: TARGET, kind: 'goal_changed', actorType: 'agent', actorSessionKey: actor, summary });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt: at };
}

const appended = (outcome: AppendOutcome | undefined) => {
  if (outcome?.type !== 'appended') throw new Error(`not appended: ${outcome?.type}`);
  return outcome;
};

let temp: TempDb;
let store: StateStore;
let probe: Database.Database;

/** Cursor rows written (updated or inserted) and journal entries appended since the triggers were made, as committed. */
const written = (): { cursors: number; journal: number } => probe.prepare('SELECT cursors, journal FROM write_counts').get() as { cursors: number; journal: number };

async function openWith(watchers: number): Promise<void> {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path });
  for (let i = 0; i < watchers; i += 1) await store.watch({ watcher: watcherOf(i), target: TARGET, now: 1 });
  probe = new Database(temp.path);
  probe.exec(`
    CREATE TABLE write_counts (cursors INTEGER NOT NULL, journal INTEGER NOT NULL);
    INSERT INTO write_counts VALUES (0, 0);
    CREATE TRIGGER count_cursor_updates AFTER UPDATE ON cursors BEGIN UPDATE write_counts SET cursors = cursors + 1; END;
    CREATE TRIGGER count_cursor_inserts AFTER INSERT ON cursors BEGIN UPDATE write_counts SET cursors = cursors + 1; END;
    CREATE TRIGGER count_journal AFTER INSERT ON cursor_journal BEGIN UPDATE write_counts SET journal = journal + 1; END;
  `);
}

afterEach(async () => {
  probe.close();
  await store.close();
  temp.remove();
});

describe.each([
  ['300 (one transaction)', 300],
  ['1,500 (paged)', 3 * FAN_OUT_INLINE_CURSORS],
])('a record that queues nothing new on %s pending watchers of one target', (_label, watchers) => {
  test('writes no cursor row and no journal entry, whatever the number of watchers, and material still follows', async () => {
    await openWith(watchers);
    const first = appended((await store.append([record('first', 10)]))[0]);
    expect(first.notices).toHaveLength(watchers);
    const before = written();
    expect(before).toEqual({ cursors: watchers, journal: watchers });

    const second = appended((await store.append([record('second', 20)]))[0]);
    // Every watcher is offered its held notice again (it coalesces with the queued one).
    expect(second.notices).toHaveLength(watchers);
    expect(second.notices.every((n) => n.reason === 'repeat' && n.notified === first.event.sequence)).toBe(true);
    expect(written()).toEqual(before);

    // What a write per watcher gave: material at the second record, touched then.
    const rows = await store.listCursors({ target: TARGET });
    expect(rows.every((row) => row.material === second.event.sequence && row.notified === first.event.sequence && row.touchedAt === 20)).toBe(true);
    // The drain's reopen decision reads it: one reopened notice up to the second record.
    const [outcome] = await store.drain({ watcher: watcherOf(0), acks: [{ target: TARGET, notified: first.event.sequence }], now: 30 });
    expect(outcome).toMatchObject({ result: 'acked', reopened: { notified: second.event.sequence, reason: 'reopen' } });
  });
});

test('a record on more watchers than one page raises them in several short transactions, the event loop turning between them, as the memory store does in one', async () => {
  const watchers = 3 * FAN_OUT_INLINE_CURSORS + 7;
  await openWith(watchers);
  const memory = createMemoryStore();
  for (let i = 0; i < watchers; i += 1) await memory.watch({ watcher: watcherOf(i), target: TARGET, now: 1 });

  // The committed cursor writes seen at each turn of the event loop while the record runs.
  const seen: number[] = [];
  let running = true;
  const watch = (): void => {
    seen.push(written().cursors);
    if (running) setImmediate(watch);
  };
  setImmediate(watch);
  const outcomes = await store.append([record('first', 10), record('second', 11, watcherOf(1))]);
  running = false;
  const steps = seen.map((count, i) => count - (i === 0 ? 0 : (seen[i - 1] as number)));
  expect(written().cursors).toBe(watchers);
  // No turn saw every watcher's write land at once: one transaction did not hold them all.
  expect(Math.max(...steps)).toBeLessThanOrEqual(watchers / 2);

  const expected = await memory.append([record('first', 10), record('second', 11, watcherOf(1))]);
  const shape = (outcome: AppendOutcome | undefined) => appended(outcome).notices.map((n) => [n.watcher, n.acked, n.notified, n.reason]);
  expect(outcomes.map(shape)).toEqual(expected.map(shape));
  expect(outcomes.map((o) => appended(o).event.sequence)).toEqual(expected.map((o) => appended(o).event.sequence));
  const pairs = (rows: readonly { watcher: string; acked: number; notified: number; material: number; touchedAt: number }[]) =>
    rows.map((r) => [r.watcher, r.acked, r.notified, r.material, r.touchedAt]);
  expect(pairs(await store.listCursors())).toEqual(pairs(await memory.listCursors()));
  const story = (entries: readonly { watcher: string; event: unknown; acked: number; notified: number; material: number }[]) =>
    entries.map((e) => [e.watcher, e.event, e.acked, e.notified, e.material]);
  expect(story(await store.readCursorJournal({ watcher: watcherOf(1) }))).toEqual(story(await memory.readCursorJournal({ watcher: watcherOf(1) })));
  expect((await store.readCursorJournal()).length).toBe((await memory.readCursorJournal()).length);
  await memory.close();
});

test('a fan-out cut short between pages is finished at the next start, and the restart scan queues every watcher once', async () => {
  const watchers = 2 * FAN_OUT_INLINE_CURSORS;
  await openWith(watchers);
  const first = appended((await store.append([record('first', 10)]))[0]);
  await store.close();
  // As a crash after the first pages leaves it: the later cursors still idle, their entries
  // unwritten, and the record's fan-out row pointing at the last cursor done.
  const raw = new Database(temp.path);
  const cut = raw.prepare('SELECT rowid FROM cursors WHERE target = ? ORDER BY rowid LIMIT 1 OFFSET 299').pluck().get(TARGET) as number;
  raw.prepare('UPDATE cursors SET acked = 0, notified = 0, material = 0, touched_at = 1 WHERE rowid > ?').run(cut);
  raw.prepare("DELETE FROM cursor_journal WHERE type = 'notice_raised' AND watcher IN (SELECT watcher FROM cursors WHERE rowid > ?)").run(cut);
  raw.prepare('INSERT INTO fan_outs (sequence, target, after_rowid) VALUES (?, ?, ?)').run(first.event.sequence, TARGET, cut);
  raw.close();

  store = openSqliteStore({ path: temp.path });
  const notices = await restartScanAll(store, 100);
  expect(notices).toHaveLength(watchers);
  expect(notices.every((n) => n.acked === 0 && n.notified === first.event.sequence && n.reason === 'recovered')).toBe(true);
  const raised = (await store.readCursorJournal()).filter((e) => e.event.type === 'notice_raised');
  expect(new Set(raised.map((e) => e.watcher)).size).toBe(watchers);
  expect(probe.prepare('SELECT count(*) FROM fan_outs').pluck().get()).toBe(0);
});

test('a pending cursor whose material a later record raised through the head counts as touched then: expiry keeps it', async () => {
  const day = 86_400_000;
  await openWith(2);
  await store.append([record('first', 10)]);
  // Pending since the first record; the second raises material (no cursor write) a day later.
  const second = appended((await store.append([record('second', 10 + day)]))[0]);
  expect(written().cursors).toBe(2);
  const now = 10 + day + day / 2;
  const batch = await store.prune({ now, maxAgeMs: 10 * day, maxRows: 1_000, cursorMaxAgeMs: day, batchSize: 100 });
  expect(batch.expiredCursors).toEqual([]);
  expect((await store.listCursors()).map((row) => [row.material, row.touchedAt])).toEqual([
    [second.event.sequence, 10 + day],
    [second.event.sequence, 10 + day],
  ]);
  // Untouched past the limit from the second record on, they expire.
  const later = await store.prune({ now: 10 + 2 * day + 1, maxAgeMs: 10 * day, maxRows: 1_000, cursorMaxAgeMs: day, batchSize: 100 });
  expect(later.expiredCursors.map((pair) => pair.watcher)).toEqual([watcherOf(0), watcherOf(1)]);
});
