// openPostgresStore's options and their checks; it imports no pg or drizzle type (skipLibCheck: false needs neither's declarations).
import type { CorruptRowInfo, Logger } from '@session-state/domain';

export interface PostgresStoreOptions {
  /** e.g. `postgres://user@host:5432/db`; every gateway sharing the state uses the same one. */
  readonly connectionString: string;
  /** The schema of the store's tables (created if missing; default `session_state`): see `SCHEMA_NAME_EXPECTED`. Gateways share state within one schema. */
  readonly schema?: string;
  /** Connections in the pool (one more is opened by `listen`); default 10. */
  readonly maxConnections?: number;
  /** How long opening a connection may take before it fails (a host that drops packets); default 10000 ms. */
  readonly connectTimeoutMs?: number;
  /** How long an operation waits for a row lock another transaction holds before it fails as "database is locked"; default 5000 ms. */
  readonly lockTimeoutMs?: number;
  /** How long one statement may run before the server cancels it ("database is locked"); default 10000 ms; a silent server gets one second more. */
  readonly statementTimeoutMs?: number;
  /** Called for each stored row that cannot be decoded (it is skipped); default a warning through `logger`, without content. */
  readonly onCorruptRow?: (info: CorruptRowInfo) => void;
  /** Where the store's own messages go (an idle connection that failed, a corrupt row); default the console. */
  readonly logger?: Logger;
}

export const DEFAULT_SCHEMA = 'session_state';
export const DEFAULT_MAX_CONNECTIONS = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** How often the idle listening connection is checked, so a silently dead one is noticed. */
export const HEARTBEAT_MS = 10_000;

/** What a schema name must be, for error messages (the CLI's too). */
export const SCHEMA_NAME_EXPECTED = "a schema of the store's own (not public, information_schema or pg_…): lower-case letters, digits and _, at most 40, not starting with a digit";

/** Whether `value` is a schema name the store accepts: not PostgreSQL's own (`pg_…`, `information_schema`) nor `public`, shared with other applications. */
export function isSchemaName(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z_][a-z0-9_]{0,39}$/.test(value) && !value.startsWith('pg_') && value !== 'information_schema' && value !== 'public';
}

export type CheckedOptions = Required<Pick<PostgresStoreOptions, 'connectionString' | 'schema' | 'maxConnections' | 'connectTimeoutMs' | 'lockTimeoutMs' | 'statementTimeoutMs'>>;

/** A positive whole number (of milliseconds, for a `…Ms` option), or the default when absent. */
function checkPositive(options: PostgresStoreOptions, name: 'maxConnections' | 'connectTimeoutMs' | 'lockTimeoutMs' | 'statementTimeoutMs', fallback: number): number {
  const value = options[name] ?? fallback;
  if (Number.isSafeInteger(value) && value >= 1) return value;
  const given: unknown = options[name];
  throw new TypeError(`openPostgresStore: ${name} must be a positive integer${name === 'maxConnections' ? '' : ' (milliseconds)'}, got ${typeof given === 'number' ? String(given) : typeof given}`);
}

export function checkOptions(options: PostgresStoreOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`openPostgresStore: options must be an object with a connectionString, got ${String(options)}`);
  const { connectionString } = options;
  if (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString)) {
    // The string may hold a password: only its type and scheme are named.
    const got = typeof connectionString === 'string' ? `a string not starting with postgres:// or postgresql://` : typeof connectionString;
    throw new TypeError(`openPostgresStore: connectionString must be a postgres:// or postgresql:// URL, got ${got}`);
  }
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (!isSchemaName(schema)) throw new TypeError(`openPostgresStore: schema must be ${SCHEMA_NAME_EXPECTED}, got ${JSON.stringify(options.schema)}`);
  const maxConnections = checkPositive(options, 'maxConnections', DEFAULT_MAX_CONNECTIONS);
  const connectTimeoutMs = checkPositive(options, 'connectTimeoutMs', DEFAULT_CONNECT_TIMEOUT_MS);
  const lockTimeoutMs = checkPositive(options, 'lockTimeoutMs', DEFAULT_LOCK_TIMEOUT_MS);
  const statementTimeoutMs = checkPositive(options, 'statementTimeoutMs', DEFAULT_STATEMENT_TIMEOUT_MS);
  if (options.onCorruptRow !== undefined && typeof options.onCorruptRow !== 'function') throw new TypeError(`openPostgresStore: onCorruptRow must be a function, got ${typeof options.onCorruptRow}`);
  return { connectionString, schema, maxConnections, connectTimeoutMs, lockTimeoutMs, statementTimeoutMs };
}
