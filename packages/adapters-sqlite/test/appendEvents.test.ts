// Group commit isolation with a failure injected AFTER a request's event row and head were
// written (a trigger aborts its cursor write): the savepoint (or, alone, the transaction) rolls
// the whole request back, and the other requests of the batch commit.
import Database from 'better-sqlite3';
import { asSequence, type AppendRequest, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { appendRequest } from './support/appendRequest.js';

const DOOMED_WATCHER = 'agent:doomed:main' as SessionKey;
const TARGET = 'agent:target:main' as SessionKey;
const OTHER = 'agent:other:main' as SessionKey;

const request = (sessionKey: SessionKey, summary: string, dedupeKey?: string): AppendRequest =>
  appendRequest({ sessionKey, actorType: 'agent', actorSessionKey: 'agent:someone:main', summary, ...(dedupeKey !== undefined ? { dedupeKey } : {}) });

let temp: TempDb;
let store: StateStore;

beforeEach(async () => {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path });
  await store.watch({ watcher: DOOMED_WATCHER, target: TARGET, now: 0 });
  // Fault injection: any write of the doomed watcher's cursor aborts, after the event insert.
  const raw = new Database(temp.path);
  raw.exec(`CREATE TRIGGER inject_cursor_failure BEFORE UPDATE ON cursors WHEN NEW.watcher = '${DOOMED_WATCHER}'
            BEGIN SELECT RAISE(ABORT, 'injected cursor write failure'); END`);
  raw.close();
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

async function eventCount(key: SessionKey): Promise<number> {
  return (await store.readChanges(key, asSequence(0), 200)).events.length;
}

test('a request alone in its batch that fails after inserting leaves no event, head or dedupe key', async () => {
  const [outcome] = await store.append([request(TARGET, 'doomed', 'k-doomed')]);
  expect(outcome?.type === 'failed' && outcome.error.message).toMatch(/injected cursor write failure/);
  expect(await eventCount(TARGET)).toBe(0);
  expect(await store.readHeads([TARGET])).toEqual([]);
  expect(await store.listCursors({ target: TARGET })).toMatchObject([{ acked: 0, notified: 0, material: 0 }]);
});

test('inside a batch, the failing request rolls back to its savepoint and the others commit', async () => {
  const outcomes = await store.append([
    request(OTHER, 'first', 'k-first'),
    request(TARGET, 'doomed', 'k-doomed'),
    request(OTHER, 'third'),
  ]);
  expect(outcomes.map((o) => o.type)).toEqual(['appended', 'failed', 'appended']);
  expect(await eventCount(TARGET)).toBe(0);
  expect(await store.readHeads([TARGET])).toEqual([]);
  const other = await store.readChanges(OTHER, asSequence(0), 200);
  expect(other.events.map((e) => e.summary)).toEqual(['first', 'third']);
  expect(other.head.head).toBe(other.events[1]?.sequence);

  // The failed request's dedupe key was never kept: once the fault is gone it appends.
  const raw = new Database(temp.path);
  raw.exec('DROP TRIGGER inject_cursor_failure');
  raw.close();
  const [retry] = await store.append([request(TARGET, 'doomed', 'k-doomed')]);
  expect(retry?.type).toBe('appended');
  const [dup] = await store.append([request(OTHER, 'first again', 'k-first')]);
  expect(dup?.type).toBe('duplicate');
});
