// The options of openSqliteStore and their checks; public types, so it imports domain types only.
import type { CorruptRowInfo, Logger } from '@session-state/domain';

/** The gateway's open database: a better-sqlite3 `Database` or a node:sqlite `DatabaseSync`. */
export interface SqliteDatabaseHandle {
  prepare(sql: string): unknown;
  exec(sql: string): unknown;
  close(): unknown;
}

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private in-memory database. Give either `path` or `database`. */
  readonly path?: string;
  /** The gateway's own open database: the store touches only its tables, sets no pragma, never closes it. Not with `readOnly` or `durability`. */
  readonly database?: SqliteDatabaseHandle;
  /** The driver a `path` is opened with: `better-sqlite3` (default, an optional peer) or Node's built-in `node:sqlite`. */
  readonly driver?: 'better-sqlite3' | 'node:sqlite';
  /** How long a writer waits for another connection's lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * `normal` (default): synchronous=NORMAL, durable across process crashes; a power cut may lose
   * the commits since the last checkpoint. `full`: an fsync per commit, at the cost of latency.
   */
  readonly durability?: 'normal' | 'full';
  /** Called for each stored row that cannot be decoded (skipped, never thrown); default: a console warning without content. */
  readonly onCorruptRow?: (info: CorruptRowInfo) => void;
  /** `true`: open an existing, migrated file for reading only; nothing is written, not even a -wal or -shm. */
  readonly readOnly?: boolean;
  /** Where the store reports what it noticed (identifiers and counts only); default: the console. */
  readonly logger?: Logger;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Refuses `value` unless it is undefined or one of `allowed`. */
function checkOneOf(name: string, value: unknown, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value as string)) throw new TypeError(`openSqliteStore: ${name} must be ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, got ${JSON.stringify(value)}`);
}

/** Refuses ill-formed options; returns the busy timeout and the PRAGMA synchronous they give. */
export function checkOptions(options: SqliteStoreOptions): { readonly busyTimeoutMs: number; readonly synchronous: 'NORMAL' | 'FULL' } {
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean') throw new TypeError(`openSqliteStore: readOnly must be a boolean, got ${typeof options.readOnly}`);
  if (options.database !== undefined) {
    if (options.path !== undefined) throw new TypeError('openSqliteStore: pass either path or database, not both');
    if (typeof options.database !== 'object' || options.database === null) throw new TypeError('openSqliteStore: database must be an open better-sqlite3 Database or node:sqlite DatabaseSync');
  } else if (typeof options.path !== 'string' || options.path.length === 0) {
    throw new TypeError(`openSqliteStore: path must be a file path or ":memory:", got ${JSON.stringify(options.path)}`);
  }
  checkOneOf('driver', options.driver, ['better-sqlite3', 'node:sqlite']);
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 0) throw new TypeError(`openSqliteStore: busyTimeoutMs must be a non-negative integer, got ${String(options.busyTimeoutMs)}`);
  checkOneOf('durability', options.durability ?? 'normal', ['normal', 'full']);
  return { busyTimeoutMs: timeout, synchronous: options.durability === 'full' ? 'FULL' : 'NORMAL' };
}
