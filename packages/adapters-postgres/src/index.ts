// The PostgreSQL adapter: the StateStore port for gateways that share one server database, with
// LISTEN/NOTIFY signals so a notice reaches the gateway that owns the watcher.
export { openPostgresStore } from './openPostgresStore';
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_SCHEMA, isSchemaName, SCHEMA_NAME_EXPECTED, type PostgresStoreOptions } from './options';
export type { CorruptRowInfo } from './storeDb';
export { HEARTBEAT_MS } from './listen';
export { hasPostgresState } from './hasState';
