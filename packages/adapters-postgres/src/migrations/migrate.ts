// Applies the pending migrations at open in one transaction under an advisory lock, so concurrent openers apply each exactly once.
import type { ClientBase } from 'pg';

import { GENERATED_MIGRATIONS } from './generated.js';
import type { Migration } from './migration.js';
import { inSchema } from './placeholder.js';

/** The newest applied migration in the store's schema (0 when none). */
export async function schemaVersion(client: ClientBase, schemaName: string): Promise<number> {
  const found = await client.query<[number | null]>({ text: `SELECT max(version) FROM ${schemaName}.schema_migrations`, rowMode: 'array' });
  return Number(found.rows[0]?.[0] ?? 0);
}

/** Creates the schema if needed and applies the pending migrations (search_path the store's schema); returns the versions applied. */
export async function migrate(client: ClientBase, schemaName: string, migrations: readonly Migration[] = GENERATED_MIGRATIONS, now: number = Date.now()): Promise<number[]> {
  const applied: number[] = [];
  const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  await client.query('BEGIN');
  try {
    // One lock per schema name, held to COMMIT: concurrent openers wait, then find the work done.
    await client.query('SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext($1))', [`session-state migrate ${schemaName}`]);
    // The name is checked ([a-z_][a-z0-9_]*): no quoting needed.
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schemaName}`);
    await client.query(`SET LOCAL search_path TO ${schemaName}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schemaName}.schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)`);
    const current = await schemaVersion(client, schemaName);
    if (current > newest) throw new Error(`the database schema version ${current} is newer than this library knows (${newest})`);
    for (const migration of migrations) {
      if (current >= migration.version) continue;
      await client.query(inSchema(migration.sql, schemaName));
      await client.query(`INSERT INTO ${schemaName}.schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, [migration.version, migration.name, now]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
