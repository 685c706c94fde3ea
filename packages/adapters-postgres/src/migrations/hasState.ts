// Whether a database already holds a session-state store in a schema, checked without creating
// or migrating anything (for a read-only tool).
import pg from 'pg';

import { STORE_APPLICATION_NAME } from '../connection/pool.js';
import { checkOptions, type PostgresStoreOptions } from '../connection/options.js';

/** True when `schema` (default session_state) exists and has had a session-state migration applied. */
export async function hasPostgresState(options: Pick<PostgresStoreOptions, 'connectionString' | 'schema' | 'connectTimeoutMs'>): Promise<boolean> {
  const { connectionString, schema, connectTimeoutMs } = checkOptions(options);
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs, application_name: STORE_APPLICATION_NAME });
  // A connection lost here rejects the query under way; unheard, its 'error' would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const found = await client.query<{ applied: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_migrations'
       ) AS applied`,
      [schema],
    );
    if (found.rows[0]?.applied !== true) return false;
    // The name is checked, so it needs no quoting.
    const rows = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.schema_migrations`);
    return (rows.rows[0]?.n ?? 0) > 0;
  } finally {
    await client.end();
  }
}
