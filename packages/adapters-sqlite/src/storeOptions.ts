// The options of openSqliteStore and their checks (clear errors naming the option and value).
// Part of the package's public types: it imports only domain types, never better-sqlite3 or
// drizzle ones.
import type { CorruptRowInfo, Logger } from '@session-state/domain';

/**
 * An open database of the gateway's, either driver's: a better-sqlite3 `Database` or a
 * node:sqlite `DatabaseSync` (see `SqliteStoreOptions.database`).
 */
export interface SqliteDatabaseHandle {
  prepare(sql: string): unknown;
  exec(sql: string): unknown;
  close(): unknown;
}

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private in-memory database. Give either `path` or `database`. */
  readonly path?: string;
  /**
   * The gateway's own open database, shared instead of a file of the store's (see the README's
   * "Sharing the gateway's database"): the store creates and touches only its own tables, sets
   * no pragma on it, runs on the handle's driver and never closes it. Not with `readOnly` or
   * `durability` (the handle's settings stand).
   */
  readonly database?: SqliteDatabaseHandle;
  /**
   * The driver a `path` is opened with: `better-sqlite3` (default; an optional peer dependency,
   * install it) or `node:sqlite` (Node's built-in, Node >= 22.16; nothing to install). With
   * `database`, the handle's driver is used.
   */
  readonly driver?: 'better-sqlite3' | 'node:sqlite';
  /** How long a writer waits for another connection's lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * `normal` (default): WAL with synchronous=NORMAL, durable across process crashes; a power cut
   * may lose the last commits, and with them sequences already returned (AUTOINCREMENT rolls
   * back too, so such a sequence can be handed out again): those since the WAL was last synced,
   * which a checkpoint does (on a file, at most about 4,000 frames apart under a steady load, and
   * 50 ms after the writes pause with 1,000 frames written). `full`: synchronous=FULL, an fsync
   * per commit, which closes that window at the cost of append latency.
   */
  readonly durability?: 'normal' | 'full';
  /**
   * Called for each stored row that cannot be decoded (it is skipped, never thrown). The
   * default warns on the console with the sequence only, never the row's content.
   */
  readonly onCorruptRow?: (info: CorruptRowInfo) => void;
  /**
   * `true`: open an existing, migrated file for reading only. Nothing is created, migrated,
   * written or checkpointed, not even a -wal or -shm (see readOnlyDatabase.ts for how, and what
   * it costs); every write method rejects. Meant for tools run beside a gateway, possibly as
   * another OS user. Default `false`.
   */
  readonly readOnly?: boolean;
  /**
   * Where the store says what it noticed, with identifiers and counts only: the state file
   * removed or replaced under it (writes then fail), a prune caller repeating itself. Default: the console.
   */
  readonly logger?: Logger;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export function checkDurability(options: SqliteStoreOptions): 'NORMAL' | 'FULL' {
  const durability = options.durability ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') {
    throw new TypeError(`openSqliteStore: durability must be "normal" or "full", got ${JSON.stringify(options.durability)}`);
  }
  return durability === 'full' ? 'FULL' : 'NORMAL';
}

export function checkOptions(options: SqliteStoreOptions): number {
  if (options.database !== undefined) {
    if (options.path !== undefined) throw new TypeError('openSqliteStore: pass either path or database, not both');
    if (typeof options.database !== 'object' || options.database === null) {
      throw new TypeError('openSqliteStore: database must be an open better-sqlite3 Database or node:sqlite DatabaseSync');
    }
  } else if (typeof options.path !== 'string' || options.path.length === 0) {
    throw new TypeError(`openSqliteStore: path must be a file path or ":memory:", got ${JSON.stringify(options.path)}`);
  }
  if (options.driver !== undefined && options.driver !== 'better-sqlite3' && options.driver !== 'node:sqlite') {
    throw new TypeError(`openSqliteStore: driver must be "better-sqlite3" or "node:sqlite", got ${JSON.stringify(options.driver)}`);
  }
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError(`openSqliteStore: busyTimeoutMs must be a non-negative integer, got ${String(options.busyTimeoutMs)}`);
  }
  return timeout;
}
