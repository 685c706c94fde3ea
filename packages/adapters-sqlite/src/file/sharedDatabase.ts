// The checks on a database the gateway handed the store: its own tables only, and never inside a transaction of the gateway's.
import type { SqliteClient } from '../driver/driver.js';

/** The tables the store creates and writes; the gateway's database must not hold others of these names. */
const STORE_TABLES = ['events', 'cursors', 'heads', 'cursor_journal', 'fan_outs', 'schema_migrations'] as const;

/** Throws while the handle is inside a transaction the store did not open. */
export function assertNoForeignTransaction(client: SqliteClient): void {
  if (client.inTransaction) throw new Error('the shared database is inside a transaction the store did not open (the gateway\'s): the store would write into it; commit or roll it back before calling the store');
}

/** Refuses a handed database the store could not share without touching what is not its own. */
export function checkSharedDatabase(client: SqliteClient): void {
  assertNoForeignTransaction(client);
  const version = client.pragma('user_version') as number;
  const exists = (name: string): boolean => client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  if (version === 0) {
    const taken = STORE_TABLES.find(exists);
    if (taken !== undefined) throw new Error(`openSqliteStore: the shared database already has a table "${taken}" that is not session-state's; the store's tables are ${STORE_TABLES.join(', ')}`);
  } else if (!exists('schema_migrations')) {
    throw new Error(`openSqliteStore: the shared database's PRAGMA user_version is ${version}, set by someone else; session-state keeps its schema version there`);
  }
}
