// Opens the store's connection with the chosen driver, or wraps the gateway's own handle
// (SqliteStoreOptions.database), and says which file it is, for the worker threads.
import { betterSqlite3Client, isBetterSqlite3Handle, loadBetterSqlite3 } from './betterSqlite3Client.js';
import type { SqliteClient } from './driver.js';
import { isNodeSqliteHandle, loadNodeSqlite, nodeSqliteClient } from './nodeSqliteClient.js';
import type { SqliteStoreOptions } from '../storeOptions.js';

export interface OpenedClient {
  readonly client: SqliteClient;
  /** The database file, or `:memory:` (no file a worker could open). */
  readonly file: string;
  /** False for a handed handle: the store never closes it, nor sets its pragmas. */
  readonly owned: boolean;
}

/** The handle's client, checked: open, of a known driver, matching `driver` when one is named. */
function handedClient(handle: object, driver: SqliteStoreOptions['driver']): SqliteClient {
  const client = isBetterSqlite3Handle(handle) ? betterSqlite3Client(handle) : isNodeSqliteHandle(handle) ? nodeSqliteClient(handle) : undefined;
  if (client === undefined) throw new TypeError('openSqliteStore: database must be an open better-sqlite3 Database or node:sqlite DatabaseSync');
  if (driver !== undefined && driver !== client.driver) throw new TypeError(`openSqliteStore: driver is "${driver}" but database is a ${client.driver} handle`);
  if (!client.open) throw new TypeError('openSqliteStore: database is closed');
  return client;
}

/** The main database's file of a connection (`PRAGMA database_list`); an in-memory or temporary one has none. */
function fileOf(client: SqliteClient): string {
  const file = client.prepare('PRAGMA database_list').all().find((row) => row.name === 'main')?.file;
  return typeof file === 'string' && file.length > 0 ? file : ':memory:';
}

/** The connection the store runs on; see SqliteStoreOptions.path, .database and .driver. */
export function openClient(options: SqliteStoreOptions, busyTimeoutMs: number): OpenedClient {
  if (options.database === undefined) {
    const path = options.path as string;
    const client = options.driver === 'node:sqlite'
      ? nodeSqliteClient(new (loadNodeSqlite().DatabaseSync)(path, { timeout: busyTimeoutMs }))
      : betterSqlite3Client(new (loadBetterSqlite3())(path, { timeout: busyTimeoutMs }));
    return { client, file: path, owned: true };
  }
  if (options.readOnly === true) throw new TypeError('openSqliteStore: readOnly is for a path; a handed database is the gateway\'s to open read-only');
  if (options.durability !== undefined) throw new TypeError('openSqliteStore: durability is for a path; with database, the handle\'s PRAGMA synchronous stands');
  const client = handedClient(options.database, options.driver);
  return { client, file: fileOf(client), owned: false };
}
