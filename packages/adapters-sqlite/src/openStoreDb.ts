// Opens (creating and migrating if needed) a SQLite file, or opens it read-only for a tool that
// only looks, and prepares the hot queries: the StoreDb every operation of the store runs on.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { warnCorruptRow } from '@session-state/adapters-sql-common';

import { NEWEST_SCHEMA_VERSION } from './migrations/index.js';
import { migrate, schemaVersion } from './migrations/migrate.js';
import { openReadOnlyDatabase } from './readOnlyDatabase.js';
import { schema } from './schema.js';
import { prepareStatements } from './statements.js';
import type { StoreDb } from './storeDb.js';
import { checkDurability, checkOptions, type SqliteStoreOptions } from './storeOptions.js';

/** A read-only file must already have exactly this library's schema: only a writer migrates. */
function checkReadableSchema(client: Database.Database): void {
  const version = schemaVersion(client);
  if (version === NEWEST_SCHEMA_VERSION) return;
  throw new Error(
    version > NEWEST_SCHEMA_VERSION
      ? `the database schema version ${version} is newer than this library knows (${NEWEST_SCHEMA_VERSION})`
      : `the database schema version ${version} is older than this library's (${NEWEST_SCHEMA_VERSION}); a writer (the gateway) migrates it when it opens the file`,
  );
}

/** Opens the file read-only (see `SqliteStoreOptions.readOnly`) and prepares the hot queries. */
function openReadOnlyStoreDb(options: SqliteStoreOptions, busyTimeoutMs: number): StoreDb {
  const view = openReadOnlyDatabase(options.path, busyTimeoutMs);
  const { client } = view;
  try {
    client.pragma(`busy_timeout = ${busyTimeoutMs}`);
    checkReadableSchema(client);
    const orm = drizzle({ client, schema });
    return {
      client,
      orm,
      statements: prepareStatements(client, orm),
      onCorruptRow: options.onCorruptRow ?? warnCorruptRow('sqlite'),
      isStale: view.isStale,
    };
  } catch (e) {
    client.close();
    throw e;
  }
}

/** Opens the database, sets the pragmas, applies pending migrations and prepares the hot queries. */
export function openStoreDb(options: SqliteStoreOptions): StoreDb {
  const busyTimeoutMs = checkOptions(options);
  const synchronous = checkDurability(options);
  if (options.readOnly === true) return openReadOnlyStoreDb(options, busyTimeoutMs);
  const client = new Database(options.path, { timeout: busyTimeoutMs });
  try {
    // busy_timeout first, so switching to WAL waits for a concurrent opener instead of failing.
    client.pragma(`busy_timeout = ${busyTimeoutMs}`);
    client.pragma('journal_mode = WAL');
    client.pragma(`synchronous = ${synchronous}`);
    client.pragma('foreign_keys = OFF');
    migrate(client);
    const orm = drizzle({ client, schema });
    return { client, orm, statements: prepareStatements(client, orm), onCorruptRow: options.onCorruptRow ?? warnCorruptRow('sqlite') };
  } catch (e) {
    client.close();
    throw e;
  }
}
