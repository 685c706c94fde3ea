// A target with many watchers: a record that only raises material on pending cursors writes no
// cursor row and no journal entry (the head's notify marks hold it), and the store reads the
// material a write per watcher would have given. Cursor writes and journal entries are counted by
// triggers in the file, read on a connection of the test's own.
import Database from 'better-sqlite3';
import { decodeRecordInput, type AppendOutcome, type AppendRequest, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';

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

describe.each([3, 1_500])('a record that queues nothing new on %i pending watchers of one target', (watchers) => {
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
