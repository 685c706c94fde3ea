// The SQLite store's cursor signals (file/fileSignals.ts): a store on a file, or on the gateway's
// own database, offers `listen`; its listener hears `resync` once at start and again only when
// another connection committed (PRAGMA data_version moved), never for the store's own commits,
// and nothing after `close`. A watch that fails is reported through `failed` and retried.
// An in-memory database and a read-only snapshot offer no `listen`.
import fs from 'node:fs';

import Database from 'better-sqlite3';
import { DatabaseSync } from 'node:sqlite';
import type { CursorSignalListener, CursorSignalSubscription, StoreError } from '@session-state/domain';
import { tempDbPath, type TempDb } from '@session-state/testkit';

import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { appendRequest } from './support/appendRequest.js';

interface Heard {
  readonly listener: CursorSignalListener;
  readonly resyncs: () => number;
  readonly failures: StoreError[];
}

function hearing(): Heard {
  let resyncs = 0;
  const failures: StoreError[] = [];
  return { listener: { targetsChanged: () => undefined, resync: () => void (resyncs += 1), failed: (error) => void failures.push(error) }, resyncs: () => resyncs, failures };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds; fails naming `what` after 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; !condition(); await sleep(10)) if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
}

/** A commit by another connection on the file, as another process's would be. */
function commitElsewhere(path: string): void {
  const other = new Database(path);
  other.exec('CREATE TABLE IF NOT EXISTS elsewhere (n INTEGER); INSERT INTO elsewhere VALUES (1)');
  other.close();
}

let temp: TempDb;
let store: SqliteStore | undefined;
let subscription: CursorSignalSubscription | undefined;
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await subscription?.close();
  await store?.close();
  subscription = undefined;
  store = undefined;
  temp.remove();
});

describe.each(['better-sqlite3', 'node:sqlite'] as const)('a store on a file (%s)', (driver) => {
  test('resyncs once at start, then only after another connection’s commit, never for its own, and nothing after close', async () => {
    store = openSqliteStore({ path: temp.path, driver });
    const heard = hearing();
    subscription = await (store.listen as NonNullable<SqliteStore['listen']>)(heard.listener);
    expect(heard.resyncs()).toBe(1);

    for (let i = 0; i < 10; i += 1) await store.append([appendRequest({ sessionKey: 'agent:a:main', summary: `own ${i}` })]);
    await sleep(400);
    expect(heard.resyncs()).toBe(1);

    commitElsewhere(temp.path);
    await until(() => heard.resyncs() === 2, 'another connection’s commit is heard');
    await sleep(300);
    expect(heard.resyncs()).toBe(2);

    await subscription.close();
    commitElsewhere(temp.path);
    await sleep(400);
    expect(heard.resyncs()).toBe(2);
    expect(heard.failures).toEqual([]);
  });
});

test('a store on the gateway’s own database listens on its file: the gateway’s writes on that handle are its own, another connection’s are heard', async () => {
  const handle = new DatabaseSync(temp.path);
  handle.exec('PRAGMA journal_mode = WAL; CREATE TABLE gateway_rows (n INTEGER)');
  store = openSqliteStore({ database: handle });
  const heard = hearing();
  subscription = await (store.listen as NonNullable<SqliteStore['listen']>)(heard.listener);
  handle.exec('INSERT INTO gateway_rows VALUES (1)');
  await sleep(400);
  expect(heard.resyncs()).toBe(1);
  commitElsewhere(temp.path);
  await until(() => heard.resyncs() === 2, 'another connection’s commit is heard');
  await subscription.close();
  await store.close();
  store = undefined;
  handle.close();
});

test('an in-memory database and a read-only snapshot offer no listen', async () => {
  const memory = openSqliteStore({ path: ':memory:' });
  expect(memory.listen).toBeUndefined();
  await memory.close();
  await openSqliteStore({ path: temp.path }).close();
  store = openSqliteStore({ path: temp.path, readOnly: true });
  expect(store.listen).toBeUndefined();
});

test('a watch that fails (refused at start, or an error later) is reported through failed, naming listen, and retried with a resync', async () => {
  store = openSqliteStore({ path: temp.path });
  const heard = hearing();
  const realWatch = fs.watch.bind(fs);
  let latest: fs.FSWatcher | undefined;
  const watch = jest.spyOn(fs, 'watch');
  watch.mockImplementationOnce(() => {
    throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
  });
  watch.mockImplementation(((...args: Parameters<typeof fs.watch>) => (latest = realWatch(...args))) as typeof fs.watch);

  subscription = await (store.listen as NonNullable<SqliteStore['listen']>)(heard.listener);
  expect(heard.failures.map((error) => [error.operation, error.message])).toEqual([['listen', expect.stringContaining('ENOSPC')]]);
  expect(heard.resyncs()).toBe(0);
  await until(() => heard.resyncs() === 1, 'the retried watch resyncs');

  latest?.emit('error', new Error('EPERM: the folder went away'));
  expect(heard.failures).toHaveLength(2);
  await until(() => heard.resyncs() === 2, 'the watch after the error resyncs');
  commitElsewhere(temp.path);
  await until(() => heard.resyncs() === 3, 'the new watch hears another connection’s commit');
  expect(watch).toHaveBeenCalledTimes(3);
});
