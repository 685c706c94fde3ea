// Whether a database already holds a session-state store in a schema, checked without creating or migrating anything (for a read-only tool).
import { checkOptions, type PostgresStoreOptions } from '../connection/options.js';
import { unboundedConfig, withUnboundedClient } from '../connection/pool.js';
import { schemaVersion } from './migrate.js';

/** True when `schema` (default session_state) exists and has had a session-state migration applied. */
export async function hasPostgresState(options: Pick<PostgresStoreOptions, 'connectionString' | 'schema' | 'connectTimeoutMs'>): Promise<boolean> {
  const checked = checkOptions(options);
  return withUnboundedClient(unboundedConfig(checked), async (client) => {
    const found = await client.query<{ applied: boolean }>(`SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'schema_migrations') AS applied`, [checked.schema]);
    return found.rows[0]?.applied === true && (await schemaVersion(client, checked.schema)) > 0;
  });
}
