// Applies the pending committed migrations at open, one write transaction each, so several
// processes opening the same fresh file at once apply every migration exactly once.
import type { SqliteClient } from '../driver/driver.js';

import { MIGRATIONS, type Migration } from './index.js';

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

/**
 * Brings the file up to the newest migration. Each migration runs in `BEGIN IMMEDIATE` and
 * re-reads `user_version` inside it, so a concurrent opener that got there first wins cleanly.
 * Returns the versions this call applied.
 */
export function migrate(client: SqliteClient, migrations: readonly Migration[] = MIGRATIONS, now: number = Date.now()): number[] {
  const applied: number[] = [];
  const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (schemaVersion(client) > newest) {
    throw new Error(`the database schema version ${schemaVersion(client)} is newer than this library knows (${newest})`);
  }
  for (const migration of migrations) {
    if (schemaVersion(client) >= migration.version) continue;
    client
      .transaction(() => {
        if (schemaVersion(client) >= migration.version) return;
        client.exec(BOOKKEEPING);
        client.exec(migration.sql);
        client
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, now);
        // PRAGMA takes no bound parameters; the version is a trusted integer from this package.
        client.pragma(`user_version = ${Math.trunc(migration.version)}`);
        applied.push(migration.version);
      })
      .immediate();
  }
  return applied;
}
