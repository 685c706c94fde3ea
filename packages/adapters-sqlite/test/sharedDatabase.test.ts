// A gateway's own open database handed to the store (either driver): the store adds only its own
// tables, leaves the gateway's tables, pragmas and handle alone, refuses to write inside the
// gateway's open transaction, and refuses a database whose table names or user_version are taken.
import fs from 'node:fs';

import Database from 'better-sqlite3';
import { DatabaseSync } from 'node:sqlite';
import { decodeRecordInput, type AppendCommand, type SessionKey } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openStoreDb } from '../src/db/openStoreDb.js';
import { openSqliteStore, type SqliteDatabaseHandle } from '../src/index.js';

type Handle = SqliteDatabaseHandle;
const drivers: readonly (readonly [string, (path: string) => Handle, (h: Handle, sql: string) => unknown[]])[] = [
  ['better-sqlite3', (path) => new Database(path), (h, sql) => (h as Database.Database).prepare(sql).all()],
  ['node:sqlite', (path) => new DatabaseSync(path), (h, sql) => (h as DatabaseSync).prepare(sql).all()],
];

const A = 'agent:a:main' as SessionKey;
function command(): AppendCommand {
  const decoded = decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 'a change', sessionKey: A });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return decoded.right;
}

let temp: TempDb;
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(() => temp.remove());

describe.each(drivers)('a shared %s handle', (_name, open, all) => {
  test('the store adds its tables beside the gateway\'s, leaves its rows and pragmas, and does not close the handle', async () => {
    const handle = open(temp.path);
    handle.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 777');
    handle.exec("CREATE TABLE gateway_sessions (id TEXT PRIMARY KEY); INSERT INTO gateway_sessions VALUES ('s1')");
    // The file is known from the handle (PRAGMA database_list): the prune worker opens it.
    expect(openStoreDb({ database: handle }).file).toBe(fs.realpathSync(temp.path));
    const store = openSqliteStore({ database: handle });
    const [outcome] = await store.append([{ command: command(), appendedAt: 1 }]);
    expect(outcome?.type).toBe('appended');
    await store.close();
    expect(all(handle, 'SELECT id FROM gateway_sessions')).toEqual([{ id: 's1' }]);
    expect(all(handle, 'PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    expect(all(handle, 'PRAGMA busy_timeout')).toEqual([{ timeout: 777 }]);
    expect(all(handle, 'SELECT count(*) AS n FROM events')).toEqual([{ n: 1 }]);
    // Still open: the store closed only what it opened.
    const names = all(handle, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((row) => (row as { name: string }).name);
    expect(names).toEqual(['cursor_journal', 'cursors', 'events', 'gateway_sessions', 'heads', 'schema_migrations', 'sqlite_sequence']);
    handle.close();
  });

  test('inside the gateway\'s open transaction the store refuses (a StoreError naming it) and writes nothing; after the commit it works', async () => {
    const handle = open(temp.path);
    handle.exec('CREATE TABLE gateway_sessions (id TEXT PRIMARY KEY)');
    const store = openSqliteStore({ database: handle });
    handle.exec("BEGIN; INSERT INTO gateway_sessions VALUES ('s1')");
    await expect(store.append([{ command: command(), appendedAt: 1 }])).rejects.toMatchObject({ _tag: 'StoreError', message: expect.stringMatching(/inside a transaction the store did not open/) });
    handle.exec('ROLLBACK');
    expect(all(handle, 'SELECT count(*) AS n FROM events')).toEqual([{ n: 0 }]);
    expect(all(handle, 'SELECT count(*) AS n FROM gateway_sessions')).toEqual([{ n: 0 }]);
    const [outcome] = await store.append([{ command: command(), appendedAt: 1 }]);
    expect(outcome?.type).toBe('appended');
    await store.close();
    handle.close();
  });

  test('a gateway table of the store\'s names, or a user_version of the gateway\'s, is refused at open with nothing created', () => {
    const taken = open(temp.path);
    taken.exec('CREATE TABLE events (id INTEGER)');
    expect(() => openSqliteStore({ database: taken })).toThrow('the shared database already has a table "events" that is not session-state\'s');
    taken.exec('DROP TABLE events; PRAGMA user_version = 7');
    expect(() => openSqliteStore({ database: taken })).toThrow("PRAGMA user_version is 7, set by someone else");
    expect(all(taken, "SELECT name FROM sqlite_master WHERE type = 'table'")).toEqual([]);
    taken.close();
  });

  test('an in-memory handle works without the worker threads; a handle of the other driver named in `driver` is refused', async () => {
    const memory = open(':memory:');
    const store = openSqliteStore({ database: memory });
    const [outcome] = await store.append([{ command: command(), appendedAt: 1 }]);
    expect(outcome?.type).toBe('appended');
    expect(openStoreDb({ database: memory }).file).toBe(':memory:');
    await store.close();
    const other = _name === 'node:sqlite' ? 'better-sqlite3' : 'node:sqlite';
    expect(() => openSqliteStore({ database: memory, driver: other })).toThrow(`driver is "${other}" but database is a ${_name} handle`);
    memory.close();
  });
});
