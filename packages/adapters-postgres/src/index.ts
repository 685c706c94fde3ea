// The PostgreSQL adapter: the StateStore port for gateways that share one server database, with
// LISTEN/NOTIFY signals so a notice reaches the gateway that owns the watcher.
// Everything exported here is public API: its declarations import only @session-state/domain types,
// never drizzle-orm, pg or better-sqlite3 types, so a gateway compiling with skipLibCheck: false needs none of
// their type declarations (tools/installTest checks it).
export { openPostgresStore } from './openPostgresStore.js';
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_SCHEMA, DEFAULT_STATEMENT_TIMEOUT_MS, HEARTBEAT_MS, isSchemaName, SCHEMA_NAME_EXPECTED, type PostgresStoreOptions } from './options.js';
export type { CorruptRowInfo } from '@session-state/domain';
export { hasPostgresState } from './hasState.js';
