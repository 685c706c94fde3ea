// The options of openSqliteStore and their checks (clear errors naming the option and value).
// Part of the package's public types: it imports only domain types, never better-sqlite3 or
// drizzle ones.
import type { CorruptRowInfo, Logger } from '@session-state/domain';

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private in-memory database. */
  readonly path: string;
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
  if (typeof options.path !== 'string' || options.path.length === 0) {
    throw new TypeError(`openSqliteStore: path must be a file path or ":memory:", got ${JSON.stringify(options.path)}`);
  }
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError(`openSqliteStore: busyTimeoutMs must be a non-negative integer, got ${String(options.busyTimeoutMs)}`);
  }
  return timeout;
}
