// Another connection holding the write lock beyond the busy timeout makes a write fail as a
// tagged StoreError naming the operation, leaves no trace, and the store keeps working after.
import Database from 'better-sqlite3';
import { asSequence, isStoreError, type AppendRequest, type SessionKey, type StateStore } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';
import { appendRequest } from './support/appendRequest.js';

const KEY = 'agent:a:main' as SessionKey;
const WATCHER = 'agent:b:main' as SessionKey;

const request = (summary: string): AppendRequest => appendRequest({ sessionKey: KEY, actorType: 'agent', summary });

let temp: TempDb;
let store: StateStore;
let other: Database.Database;

beforeEach(() => {
  temp = tempDbPath();
  store = openSqliteStore({ path: temp.path, busyTimeoutMs: 25 });
  other = new Database(temp.path);
});
afterEach(async () => {
  if (other.inTransaction) other.exec('ROLLBACK');
  other.close();
  await store.close();
  temp.remove();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

test('writes fail as StoreErrors while another connection holds the write lock, and work once it is released', async () => {
  const [before] = await store.append([request('before')]);
  expect(before?.type).toBe('appended');

  other.exec('BEGIN IMMEDIATE');
  const appendError = await rejection(store.append([request('blocked 1'), request('blocked 2')]));
  expect(isStoreError(appendError) && appendError.operation).toBe('append');
  const watchError = await rejection(store.watch({ watcher: WATCHER, target: KEY, now: 1 }));
  expect(isStoreError(watchError) && watchError.operation).toBe('watch');
  const pruneError = await rejection(store.prune({ now: 10, maxAgeMs: 1, maxRows: 0, batchSize: 10 }));
  expect(isStoreError(pruneError) && pruneError.operation).toBe('prune');
  // Readers are not blocked by a writer in WAL mode.
  const page = await store.readChanges(KEY, asSequence(0), 200);
  expect(page.events.map((e) => e.summary)).toEqual(['before']);
  other.exec('ROLLBACK');

  const [after] = await store.append([request('after')]);
  expect(after?.type).toBe('appended');
  const final = await store.readChanges(KEY, asSequence(0), 200);
  expect(final.events.map((e) => e.summary)).toEqual(['before', 'after']);
  expect(final.head.head).toBe(final.events[1]?.sequence);
});
