// Opens (creating and migrating if needed) a SQLite file and returns the StateStore port over
// it: each method is an async wrapper around one synchronous operation.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { storePort, warnCorruptRow } from '@session-state/adapters-sql-common';
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

import { appendEvents } from './appendEvents';
import { readCursorJournal } from './cursorJournal';
import { deleteSession } from './deleteSession';
import { drain } from './drain';
import { listCursors } from './listCursors';
import { migrate } from './migrations/migrate';
import { pendingNotices } from './pendingNotices';
import { checkpoint, prune } from './prune';
import { readChanges, readSessionChanges } from './readChanges';
import { readHeads } from './readHeads';
import { recover } from './recover';
import { resetWatcher } from './resetWatcher';
import { schema } from './schema';
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

/** Opens the database, sets the pragmas, applies pending migrations and prepares the hot queries. */
export function openStoreDb(options: SqliteStoreOptions): StoreDb {
  const busyTimeoutMs = checkOptions(options);
  const synchronous = checkDurability(options);
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
  const db = openStoreDb(options);

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
  return storePort(db, { ...operations, restartScan: recover, resetWatcher, deleteSession, prune: (_db, request) => pruneBatch(request), close });
}
