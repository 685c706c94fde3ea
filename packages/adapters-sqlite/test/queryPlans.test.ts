// The hot queries use the indexes the schema creates: no table scan, no sort, on the append
// and read paths, in scanPending (the restart scan, or re-reads in full or on signalled targets), and in
// journal retention (one window of positions per batch).
import { openStoreDb } from '../src/db/openStoreDb.js';
import type { StoreDb } from '../src/db/storeDb.js';

let db: StoreDb;
beforeEach(() => {
  db = openStoreDb({ path: ':memory:' });
});
afterEach(() => db.client.close());

function plan(sql: string): string[] {
  const params = Object.fromEntries((sql.match(/@\w+/g) ?? []).map((name) => [name.slice(1), null]));
  // A statement bound by position (sql/storeQueries.ts positional) takes one null per `?` instead.
  const positional = (sql.match(/\?/g) ?? []).map(() => null);
  const values = positional.length > 0 ? positional : [params];
  return (db.client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as { detail: string }[]).map((row) => row.detail);
}

const source = (statement: { readonly source: string }): string => statement.source;

test.each([
  ['eventByDedupeKey', /SEARCH events USING INDEX \S+ \(dedupe_key=\?\)/],
  ['cursorsOnTarget', /SEARCH cursors USING INDEX cursors_target \(target=\?\)/],
  ['headOf', /SEARCH heads USING INDEX \S+ \(session_key=\?\)/],
  ['cursorOf', /SEARCH cursors USING INDEX \S+ \(watcher=\? AND target=\?\)/],
  ['updateCursor', /SEARCH cursors USING INDEX \S+ \(watcher=\? AND target=\?\)/],
  ['listCursorsOfWatcher', /SEARCH cursors USING INDEX \S+ \(watcher=\?\)/],
  ['listCursorsOfPair', /SEARCH cursors USING INDEX \S+ \(watcher=\? AND target=\?\)/],
  ['journalOfPair', /SEARCH cursor_journal USING INDEX cursor_journal_pair \(watcher=\? AND target=\?\)/],
  ['sessionEvents', /SEARCH events USING COVERING INDEX events_session_sequence \(session_key=\?\)/],
  ['deleteSessionEvents', /SEARCH events USING INDEX events_session_sequence \(session_key=\?\)/],
] as const)('%s searches an index', (name, expected) => {
  const lines = plan(source(db.statements[name]));
  expect(lines).toEqual([expect.stringMatching(expected)]);
});

test('pendingCursorsAfter (a restart scan page) reads only the covering partial index cursors_lagging, in its order, with no sort', () => {
  const lines = plan(source(db.statements.pendingCursorsAfter));
  expect(lines).toEqual([expect.stringMatching(/SEARCH cursors USING COVERING INDEX cursors_lagging \(\(watcher,target\)>\(\?,\?\)\)/)]);
});

test('headsOfKeys (list) walks the given keys and looks each up in the heads key index: no scan of heads, no sort', () => {
  const lines = plan(source(db.statements.headsOfKeys));
  expect(lines).toEqual([expect.stringMatching(/SCAN wanted VIRTUAL TABLE/), expect.stringMatching(/SEARCH heads USING INDEX \S+ \(session_key=\?\)/)]);
  expect(lines.join('\n')).not.toMatch(/TEMP B-TREE/);
});

test('changesSince reads the head by key, the events by (session_key, sequence), and the earliest retained once (not per row) from the covering index, with no sort', () => {
  const lines = plan(source(db.statements.changesSince));
  expect(lines).toEqual([
    expect.stringMatching(/SEARCH heads USING INDEX \S+ \(session_key=\?\)/),
    expect.stringMatching(/SEARCH events USING INDEX events_session_sequence \(session_key=\? AND sequence>\?\)/),
    'SCALAR SUBQUERY 1',
    expect.stringMatching(/SEARCH events USING COVERING INDEX events_session_sequence \(session_key=\?\)/),
  ]);
  expect(lines.join('\n')).not.toMatch(/TEMP B-TREE/);
});

test('the restart scan and a full held-notice read (scanPending pages) read only the covering partial index of pending cursors from the first pair of the page, with no sort', () => {
  const lines = plan(source(db.statements.pendingCursorsAfter));
  expect(lines).toEqual([expect.stringMatching(/SEARCH cursors USING COVERING INDEX cursors_lagging \(\(watcher,target\)>\(\?,\?\)\)/)]);
});

test('scanPending on targets looks them up by the cursors_target index, sorting only the rows found, never scanning the table', () => {
  const lines = plan(source(db.statements.pendingCursorsOn));
  expect(lines).toEqual([expect.stringMatching(/SEARCH cursors USING INDEX cursors_target \(target=\?\)/), 'LIST SUBQUERY 1', 'SCAN json_each VIRTUAL TABLE INDEX 1:', 'USE TEMP B-TREE FOR ORDER BY']);
});

test('journal retention reads one window of positions: the window searches the position range, its pairs on the pair index, the probe for an aged entry the age index once, and the delete looks up each position, never scanning the journal', () => {
  const lines = plan(source(db.statements.journalWindowEntries));
  expect(lines[0]).toBe('SEARCH cursor_journal USING INTEGER PRIMARY KEY (rowid>?)');
  expect(lines.filter((line) => /cursor_journal_(pair|recorded_at)|SUBQUERY/.test(line))).toEqual([
    expect.stringMatching(/^SCALAR SUBQUERY/),
    'SEARCH cursor_journal USING COVERING INDEX cursor_journal_recorded_at (recorded_at<?)',
    expect.stringMatching(/^CORRELATED SCALAR SUBQUERY/),
    expect.stringMatching(/^CORRELATED SCALAR SUBQUERY/),
    expect.stringMatching(/SEARCH later USING COVERING INDEX cursor_journal_pair \(watcher=\? AND target=\? AND position>\?\)/),
    expect.stringMatching(/^CORRELATED SCALAR SUBQUERY/),
    expect.stringMatching(/SEARCH older USING COVERING INDEX cursor_journal_pair \(watcher=\? AND target=\? AND position<\?\)/),
  ]);
  expect(plan(source(db.statements.deleteJournalEntries))).toEqual(['SEARCH cursor_journal USING INTEGER PRIMARY KEY (rowid=?)', 'LIST SUBQUERY 1', 'SCAN json_each VIRTUAL TABLE INDEX 1:']);
  for (const name of ['journalWindowEntries', 'deleteJournalEntries'] as const) expect(plan(source(db.statements[name])).join('\n')).not.toMatch(/SCAN cursor_journal|TEMP B-TREE/);
});

test('readOverview: its counts scan the heads once and count cursors on indexes alone; its heads and cursors walk an index in their order, with no sort', () => {
  expect(plan(source(db.statements.overviewCounts))).toEqual([
    'SCAN heads',
    expect.stringMatching(/^SCALAR SUBQUERY/),
    expect.stringMatching(/^SCAN cursors USING COVERING INDEX/),
    expect.stringMatching(/^SCALAR SUBQUERY/),
    'SCAN cursors USING COVERING INDEX cursors_lagging',
    expect.stringMatching(/^SCALAR SUBQUERY/),
    'SCAN cursors USING COVERING INDEX cursors_lagging',
  ]);
  expect(plan(source(db.statements.firstHeads))).toEqual([expect.stringMatching(/^SCAN heads USING INDEX \S+$/)]);
  expect(plan(source(db.statements.firstPendingCursors))).toEqual(['SCAN cursors USING INDEX cursors_lagging']);
  expect(plan(source(db.statements.firstIdleCursors))).toEqual([expect.stringMatching(/^SCAN cursors USING INDEX \S+$/)]);
});
