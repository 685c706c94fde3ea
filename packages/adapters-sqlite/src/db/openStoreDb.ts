// Opens the StoreDb every operation runs on: a file (created and migrated), a read-only view, or the gateway's database.
import { warnCorruptRow } from '@session-state/adapters-sql-common';

import { checkSchemaVersion, migrate } from '../migrations/migrate.js';
import { openClient, type OpenedClient } from '../driver/openClient.js';
import { openReadOnlyDatabase } from '../file/readOnlyDatabase.js';
import { checkSharedDatabase } from '../file/sharedDatabase.js';
import { prepareStatements } from '../statements.js';
import type { StoreDb } from './storeDb.js';
import { checkOptions, type SqliteStoreOptions } from '../storeOptions.js';

export type OpenedStoreDb = StoreDb & OpenedClient;

/**
 * Opens the database, sets the pragmas, applies pending migrations and prepares the statements. A handed
 * database (options.database) gets no pragma: it is checked, then migrated. A read-only file is only checked.
 */
export function openStoreDb(options: SqliteStoreOptions): OpenedStoreDb {
  const { busyTimeoutMs, synchronous } = checkOptions(options);
  const readOnly = options.readOnly === true && options.database === undefined;
  if (readOnly && options.driver === 'node:sqlite') throw new TypeError("openSqliteStore: readOnly needs driver 'better-sqlite3' (it opens a snapshot from the file's bytes)");
  const view = readOnly ? openReadOnlyDatabase(options.path as string, busyTimeoutMs) : undefined;
  const { client, file, owned } = view === undefined ? openClient(options, busyTimeoutMs) : { client: view.client, file: options.path as string, owned: true };
  try {
    if (owned) {
      // busy_timeout first, so switching to WAL waits for a concurrent opener instead of failing.
      client.pragma(`busy_timeout = ${busyTimeoutMs}`);
      if (!readOnly) {
        client.pragma('journal_mode = WAL');
        client.pragma(`synchronous = ${synchronous}`);
        client.pragma('foreign_keys = OFF');
      }
    } else checkSharedDatabase(client);
    if (readOnly) checkSchemaVersion(client, true);
    else migrate(client);
    const onCorruptRow = options.onCorruptRow ?? warnCorruptRow('sqlite');
    return { client, file, owned, statements: prepareStatements(client), onCorruptRow, ...(view === undefined ? {} : { isStale: view.isStale }) };
  } catch (e) {
    if (owned) client.close();
    throw e;
  }
}
