// The PostgreSQL store for gateways sharing one database, with LISTEN/NOTIFY signals; its declarations import no drizzle-orm or pg types.
export { openPostgresStore, type PostgresStore } from './openPostgresStore.js';
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_SCHEMA, DEFAULT_STATEMENT_TIMEOUT_MS, HEARTBEAT_MS, isSchemaName, SCHEMA_NAME_EXPECTED, type PostgresStoreOptions } from './connection/options.js';
export type { CorruptRowInfo } from '@session-state/domain';
export { hasPostgresState } from './migrations/hasState.js';
