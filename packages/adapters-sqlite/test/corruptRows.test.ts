// A corrupt stored row (bad JSON payload, unknown kind) never crashes a read: readChanges skips
// it, reports its sequence (never its content) and still pages correctly.
import Database from 'better-sqlite3';
import { asSequence, decodeRecordInput, type AppendRequest, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore, type CorruptRowInfo } from '../src/index.js';

const KEY = 'agent:a:main' as SessionKey;
const SECRET = 'do-not-log-this-content';

function request(summary: string, appendedAt = 1_000): AppendRequest {
  const decoded = decodeRecordInput({ sessionKey: KEY, kind: 'goal_changed', actorType: 'agent', summary, payload: { n: summary } });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt };
}

let temp: TempDb;
let store: StateStore;
let reported: CorruptRowInfo[];

beforeEach(() => {
  temp = tempDbPath();
  reported = [];
  store = openSqliteStore({ path: temp.path, onCorruptRow: (info) => reported.push(info) });
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

/** Appends `count` events and returns their sequences. */
async function appendMany(count: number): Promise<number[]> {
  const outcomes = await store.append(Array.from({ length: count }, (_, i) => request(`event ${i}`)));
  return outcomes.map((o) => (o.type === 'appended' ? o.event.sequence : Number.NaN));
}

/** Damages stored rows behind the store's back, through a second connection. */
function corrupt(sql: string, ...params: unknown[]): void {
  const raw = new Database(temp.path);
  try {
    raw.prepare(sql).run(...params);
  } finally {
    raw.close();
  }
}

test('a row with a non-JSON payload or an unknown kind is skipped and reported by sequence', async () => {
  const seqs = await appendMany(5);
  corrupt('UPDATE events SET payload = ? WHERE sequence = ?', `{${SECRET}`, seqs[1]);
  corrupt("UPDATE events SET kind = 'no_such_kind' WHERE sequence = ?", seqs[3]);

  const page = await store.readChanges(KEY, asSequence(0), 200);

  expect(page.events.map((e) => e.sequence)).toEqual([seqs[0], seqs[2], seqs[4]]);
  expect(page.head.head).toBe(seqs[4]);
  expect(reported.map((r) => [r.operation, r.table, r.sequence])).toEqual([
    ['readChanges', 'events', seqs[1]],
    ['readChanges', 'events', seqs[3]],
  ]);
  expect(JSON.stringify(reported)).not.toContain(SECRET);
});

test('a payload that is JSON but not an object is corrupt too', async () => {
  const seqs = await appendMany(2);
  corrupt("UPDATE events SET payload = '[1,2]' WHERE sequence = ?", seqs[0]);
  const page = await store.readChanges(KEY, asSequence(0), 200);
  expect(page.events.map((e) => e.sequence)).toEqual([seqs[1]]);
  expect(reported.map((r) => r.sequence)).toEqual([seqs[0]]);
});

test('skipped rows never cut a page short: it still holds `limit` good events and an exact hasMore', async () => {
  const seqs = await appendMany(12);
  // Corrupt three rows inside the first page and one just after it.
  for (const i of [0, 2, 3, 6]) corrupt("UPDATE events SET kind = 'bogus' WHERE sequence = ?", seqs[i]);
  const good = seqs.filter((_, i) => ![0, 2, 3, 6].includes(i));

  const first = await store.readChanges(KEY, asSequence(0), 4);
  expect(first.events.map((e) => e.sequence)).toEqual(good.slice(0, 4));
  expect(first.hasMore).toBe(true);

  // Paging with the last returned sequence reaches the end with no skip and no repeat.
  const seen = [...first.events.map((e) => e.sequence)];
  let since = first.events[first.events.length - 1]?.sequence ?? 0;
  for (let more = first.hasMore; more; ) {
    const page = await store.readChanges(KEY, asSequence(since), 4);
    seen.push(...page.events.map((e) => e.sequence));
    since = page.events[page.events.length - 1]?.sequence ?? since;
    more = page.hasMore;
  }
  expect(seen).toEqual(good);
});

test('a page whose only rows are corrupt is empty with hasMore false, not an endless loop', async () => {
  const seqs = await appendMany(3);
  for (const s of seqs) corrupt("UPDATE events SET kind = 'bogus' WHERE sequence = ?", s);
  const page = await store.readChanges(KEY, asSequence(0), 2);
  expect(page).toEqual({ head: { head: seqs[2], pruneWatermark: 0 }, events: [], hasMore: false });
});

test('by default a corrupt row is reported with console.warn, naming the sequence and never the content', async () => {
  await store.close();
  store = openSqliteStore({ path: temp.path });
  const seqs = await appendMany(2);
  corrupt('UPDATE events SET payload = ? WHERE sequence = ?', `{${SECRET}`, seqs[0]);
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const page = await store.readChanges(KEY, asSequence(0), 200);
    expect(page.events.map((e) => e.sequence)).toEqual([seqs[1]]);
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain(`sequence ${seqs[0]}`);
    expect(message).not.toContain(SECRET);
  } finally {
    warn.mockRestore();
  }
});

test('a duplicate whose stored event is corrupt fails that request alone, reported, without content', async () => {
  const decoded = decodeRecordInput({ sessionKey: KEY, kind: 'compacted', actorType: 'system', summary: 'c', dedupeKey: 'k1' });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  const [first] = await store.append([{ command: decoded.right, appendedAt: 1 }]);
  const sequence = first?.type === 'appended' ? first.event.sequence : -1;
  corrupt('UPDATE events SET payload = ? WHERE sequence = ?', `{${SECRET}`, sequence);

  const [again] = await store.append([{ command: decoded.right, appendedAt: 2 }]);

  expect(again?.type).toBe('failed');
  expect(JSON.stringify(again)).not.toContain(SECRET);
  expect(reported.map((r) => [r.operation, r.sequence])).toEqual([['append', sequence]]);
  const heads = await store.readHeads([KEY]);
  expect(heads[0]?.head).toBe(sequence);
});
test('the lean status read skips and reports corrupt rows exactly like readChanges (same page, same reports)', async () => {
  const seqs = await appendMany(6);
  corrupt('UPDATE events SET payload = ? WHERE sequence = ?', `{${SECRET}`, seqs[1]);
  corrupt("UPDATE events SET actor_type = 'robot' WHERE sequence = ?", seqs[4]);

  const lean = await store.readSessionChanges?.(KEY, asSequence(0), 3);
  const leanReports = reported.splice(0);
  const full = await store.readChanges(KEY, asSequence(0), 3);

  expect(lean?.events.map((e) => e.sequence)).toEqual([seqs[0], seqs[2], seqs[3]]);
  expect(lean?.events.map((e) => e.sequence)).toEqual(full.events.map((e) => e.sequence));
  expect(lean?.hasMore).toBe(true);
  expect(leanReports).toEqual(reported);
  expect(JSON.stringify(lean)).not.toContain(SECRET);
});

describe('a cursor row whose watermarks are not sequences, or not in order', () => {
  const WATCHER = 'agent:w:main' as SessionKey;
  const OTHER = 'agent:o:main' as SessionKey;

  async function watchedBy(...watchers: SessionKey[]): Promise<void> {
    for (const watcher of watchers) await store.watch({ watcher, target: KEY, now: 1_000 });
  }

  test('is reported and skipped by listCursors, append, drain and the restart scan; sound rows still work', async () => {
    await watchedBy(WATCHER, OTHER);
    corrupt("UPDATE cursors SET acked = 'x' WHERE watcher = ?", WATCHER);

    const listed = await store.listCursors();
    expect(listed.map((row) => row.watcher)).toEqual([OTHER]);

    const [outcome] = await store.append([request('a foreign change')]);
    expect(outcome?.type).toBe('appended');
    const notices = outcome?.type === 'appended' ? outcome.notices : [];
    expect(notices.map((notice) => notice.watcher)).toEqual([OTHER]);

    const drained = await store.drain(WATCHER, [{ target: KEY, notified: asSequence(1) }], 2_000);
    expect(drained).toEqual([{ target: KEY, result: 'stale' }]);

    expect((await store.restartScan(3_000)).map((notice) => notice.watcher)).toEqual([OTHER]);

    expect(reported.length).toBeGreaterThanOrEqual(3);
    expect(reported.every((info) => info.table === 'cursors')).toBe(true);
    expect(new Set(reported.map((info) => info.operation))).toEqual(new Set(['listCursors', 'append', 'drain']));
  });

  test('with watermarks out of order (notified above material) is reported and skipped by listCursors, the scans, append and drain', async () => {
    await watchedBy(WATCHER, OTHER);
    await store.append([request('a foreign change')]);
    corrupt('UPDATE cursors SET notified = material + 5 WHERE watcher = ?', WATCHER);

    expect((await store.listCursors()).map((row) => row.watcher)).toEqual([OTHER]);
    expect((await store.pendingNotices()).map((notice) => notice.watcher)).toEqual([OTHER]);
    expect((await store.restartScan(1_500)).map((notice) => notice.watcher)).toEqual([OTHER]);
    const [outcome] = await store.append([request('another foreign change')]);
    expect(outcome?.type === 'appended' ? outcome.notices.map((notice) => notice.watcher) : undefined).toEqual([OTHER]);
    expect(await store.drain(WATCHER, [{ target: KEY, notified: asSequence(1) }], 2_000)).toEqual([{ target: KEY, result: 'stale' }]);

    expect(reported).toEqual(
      ['listCursors', 'pendingNotices', 'restartScan', 'append', 'drain'].map((operation) => ({ operation, table: 'cursors', reason: 'watermarks are out of order' })),
    );
  });

  test('a corrupt lagging row is reported by the restart scan, never turned into a notice', async () => {
    await watchedBy(WATCHER);
    await store.append([request('a foreign change')]);
    corrupt("UPDATE cursors SET notified = 'x' WHERE watcher = ?", WATCHER);

    expect(await store.restartScan(3_000)).toEqual([]);
    expect(reported).toEqual([{ operation: 'restartScan', table: 'cursors', reason: expect.any(String) }]);
  });

  test('a corrupt lagging row is reported by pendingNotices (full and on targets), never turned into a notice; sound rows still give theirs', async () => {
    await watchedBy(WATCHER, OTHER);
    await store.append([request('a foreign change')]);
    corrupt("UPDATE cursors SET material = 'x' || material WHERE watcher = ?", WATCHER);

    expect((await store.pendingNotices()).map((notice) => notice.watcher)).toEqual([OTHER]);
    expect((await store.pendingNotices(undefined, [KEY])).map((notice) => notice.watcher)).toEqual([OTHER]);
    expect(reported).toEqual([
      { operation: 'pendingNotices', table: 'cursors', reason: expect.any(String) },
      { operation: 'pendingNotices', table: 'cursors', reason: expect.any(String) },
    ]);
  });
});
