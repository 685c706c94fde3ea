// Applies the pending committed migrations at open, one write transaction each, so several
// processes opening the same fresh file at once apply every migration exactly once.
import type { SqliteClient } from '../driver/driver.js';

import { MIGRATIONS, NEWEST_SCHEMA_VERSION, type Migration } from './index.js';

const BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY NOT NULL,
  name       TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
);`;

/** The schema version recorded in the file (`PRAGMA user_version`). */
export function schemaVersion(client: SqliteClient): number {
  return client.pragma('user_version') as number;
}

/** Refuses a file whose schema is newer than `newest`; with `readOnly`, also an older one, since only a writer migrates. */
export function checkSchemaVersion(client: SqliteClient, readOnly: boolean, newest = NEWEST_SCHEMA_VERSION): void {
  const version = schemaVersion(client);
  if (version > newest) throw new Error(`the database schema version ${version} is newer than this library knows (${newest})`);
  if (readOnly && version < newest) throw new Error(`the database schema version ${version} is older than this library's (${newest}); a writer (the gateway) migrates it when it opens the file`);
}

/**
 * Brings the file up to the newest migration. Each migration runs in `BEGIN IMMEDIATE` and
 * re-reads `user_version` inside it, so a concurrent opener that got there first wins cleanly.
 * Returns the versions this call applied.
 */
export function migrate(client: SqliteClient, migrations: readonly Migration[] = MIGRATIONS, now: number = Date.now()): number[] {
  const applied: number[] = [];
  const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  checkSchemaVersion(client, false, newest);
  for (const migration of migrations) {
    if (schemaVersion(client) >= migration.version) continue;
    client
      .transaction(() => {
        if (schemaVersion(client) >= migration.version) return;
        client.exec(BOOKKEEPING);
        client.exec(migration.sql);
        client.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, now);
        // PRAGMA takes no bound parameters; the version is a trusted integer from this package.
        client.pragma(`user_version = ${Math.trunc(migration.version)}`);
        applied.push(migration.version);
      })
      .immediate();
  }
  return applied;
}
