// Opens (creating and migrating if needed) a SQLite file, or opens it read-only for a tool that
// only looks, and returns the StateStore port over it: each method is an async wrapper around
// one synchronous operation.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { storePort, warnCorruptRow } from '@session-state/adapters-sql-common';
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

import { appendEvents } from './appendEvents';
import { readCursorJournal } from './cursorJournal';
import { deleteSession } from './deleteSession';
import { drain } from './drain';
import { listCursors } from './listCursors';
import { NEWEST_SCHEMA_VERSION } from './migrations';
import { migrate, schemaVersion } from './migrations/migrate';
import { pendingNotices } from './pendingNotices';
import { checkpoint, prune } from './prune';
import { readChanges, readSessionChanges } from './readChanges';
import { readHeads } from './readHeads';
import { recover } from './recover';
import { resetWatcher } from './resetWatcher';
import { schema } from './schema';
import { openReadOnlyDatabase } from './readOnlyDatabase';
import { prepareStatements } from './statements';
import type { CorruptRowInfo, StoreDb } from './storeDb';
import { watch } from './watch';

// --- options -------------------------------------------------------------------------------

export interface SqliteStoreOptions {
  /** A file path, or `:memory:` for a private in-memory database. */
  readonly path: string;
  /** How long a writer waits for another connection's lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /**
   * `normal` (default): WAL with synchronous=NORMAL, durable across process crashes; a power cut
   * may lose the last commits, and with them sequences already returned (AUTOINCREMENT rolls
   * back too, so such a sequence can be handed out again). `full`: synchronous=FULL, an fsync per
   * commit, which closes that window at the cost of append latency.
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
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

function checkDurability(options: SqliteStoreOptions): 'NORMAL' | 'FULL' {
  const durability = options.durability ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') {
    throw new TypeError(`openSqliteStore: durability must be "normal" or "full", got ${JSON.stringify(options.durability)}`);
  }
  return durability === 'full' ? 'FULL' : 'NORMAL';
}

function checkOptions(options: SqliteStoreOptions): number {
  if (typeof options.path !== 'string' || options.path.length === 0) {
    throw new TypeError(`openSqliteStore: path must be a file path or ":memory:", got ${JSON.stringify(options.path)}`);
  }
  const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new TypeError(`openSqliteStore: busyTimeoutMs must be a non-negative integer, got ${String(options.busyTimeoutMs)}`);
  }
  return timeout;
}

// --- open ------------------------------------------------------------------------------------

/** A read-only file must already have exactly this library's schema: only a writer migrates. */
function checkReadableSchema(client: Database.Database): void {
  const version = schemaVersion(client);
  if (version === NEWEST_SCHEMA_VERSION) return;
  throw new Error(
    version > NEWEST_SCHEMA_VERSION
      ? `the database schema version ${version} is newer than this library knows (${NEWEST_SCHEMA_VERSION})`
      : `the database schema version ${version} is older than this library's (${NEWEST_SCHEMA_VERSION}); a writer (the gateway) migrates it when it opens the file`,
  );
}

/** Opens the file read-only (see `SqliteStoreOptions.readOnly`) and prepares the hot queries. */
function openReadOnlyStoreDb(options: SqliteStoreOptions, busyTimeoutMs: number): StoreDb {
  const view = openReadOnlyDatabase(options.path, busyTimeoutMs);
  const { client } = view;
  try {
    client.pragma(`busy_timeout = ${busyTimeoutMs}`);
    checkReadableSchema(client);
    const orm = drizzle({ client, schema });
    return {
      client,
      orm,
      statements: prepareStatements(client, orm),
      onCorruptRow: options.onCorruptRow ?? warnCorruptRow('sqlite'),
      isStale: view.isStale,
    };
  } catch (e) {
    client.close();
    throw e;
  }
}

/** Opens the database, sets the pragmas, applies pending migrations and prepares the hot queries. */
export function openStoreDb(options: SqliteStoreOptions): StoreDb {
  const busyTimeoutMs = checkOptions(options);
  const synchronous = checkDurability(options);
  if (options.readOnly === true) return openReadOnlyStoreDb(options, busyTimeoutMs);
  const client = new Database(options.path, { timeout: busyTimeoutMs });
  try {
    // busy_timeout first, so switching to WAL waits for a concurrent opener instead of failing.
    client.pragma(`busy_timeout = ${busyTimeoutMs}`);
    client.pragma('journal_mode = WAL');
    client.pragma(`synchronous = ${synchronous}`);
    client.pragma('foreign_keys = OFF');
    migrate(client);
    const orm = drizzle({ client, schema });
    return { client, orm, statements: prepareStatements(client, orm), onCorruptRow: options.onCorruptRow ?? warnCorruptRow('sqlite') };
  } catch (e) {
    client.close();
    throw e;
  }
}

/**
 * The SQLite StateStore. Several processes may open the same file: every write runs in
 * `BEGIN IMMEDIATE`, sequences come from one AUTOINCREMENT counter, and WAL lets readers run
 * beside the writer.
 *
 * @example const store = openSqliteStore({ path: 'state.db' });
 */
export function openSqliteStore(options: SqliteStoreOptions): StateStore {
  if (options.readOnly !== undefined && typeof options.readOnly !== 'boolean') {
    throw new TypeError(`openSqliteStore: readOnly must be a boolean, got ${typeof options.readOnly}`);
  }
  let db = openStoreDb(options);

  // A read-only snapshot is replaced by a fresh one once the file has changed, so every read
  // sees the file's latest commit (a live read-only connection sees it by itself).
  const refreshSnapshot = (): void => {
    if (db.isStale?.() !== true) return;
    const fresh = openStoreDb(options);
    db.client.close();
    db = fresh;
  };

  /** The database every operation but `close` runs on: a stale read-only snapshot is refreshed first. */
  const current = (): StoreDb => {
    if (db.client.open) refreshSnapshot();
    return db;
  };

  // A big prune batch's WAL pages are checkpointed in a later turn of the event loop, never
  // inside the batch (see prune.ts); at most one checkpoint waits at a time.
  let pendingCheckpoint: NodeJS.Immediate | undefined;
  const runCheckpoint = (): void => {
    pendingCheckpoint = undefined;
    checkpoint(db);
  };
  const pruneBatch = (request: PruneRequest): PruneBatch => {
    // A caller that did not let a turn pass (e.g. a CLI loop) gets the waiting checkpoint now,
    // so the WAL never holds more than about one batch while the auto-checkpoint is held off.
    if (pendingCheckpoint !== undefined) {
      clearImmediate(pendingCheckpoint);
      runCheckpoint();
    }
    const { batch, checkpointDue } = prune(db, request);
    if (checkpointDue && pendingCheckpoint === undefined) pendingCheckpoint = setImmediate(runCheckpoint).unref();
    return batch;
  };

  const close = (): void => {
    if (pendingCheckpoint !== undefined) clearImmediate(pendingCheckpoint);
    pendingCheckpoint = undefined;
    if (db.client.open) db.client.close();
  };
  // The port wiring (whole-ms clocks, StoreError rejections) is adapters-sql-common's storePort.
  const operations = { append: appendEvents, watch, readChanges, readSessionChanges, readHeads, listCursors, readCursorJournal, drain, pendingNotices };
  return storePort(current, { ...operations, restartScan: recover, resetWatcher, deleteSession, prune: (_db, request) => pruneBatch(request), close });
}
