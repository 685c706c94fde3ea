// The PostgreSQL store: the StateStore port for gateways sharing one server database, with
// LISTEN/NOTIFY signals. Public declarations import only @session-state/domain types, never
// drizzle-orm or pg types, so a gateway with skipLibCheck: false needs none of theirs.
export { openPostgresStore, type PostgresStore } from './openPostgresStore.js';
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_SCHEMA, DEFAULT_STATEMENT_TIMEOUT_MS, HEARTBEAT_MS, isSchemaName, SCHEMA_NAME_EXPECTED, type PostgresStoreOptions } from './connection/options.js';
export type { CorruptRowInfo } from '@session-state/domain';
export { hasPostgresState } from './migrations/hasState.js';
