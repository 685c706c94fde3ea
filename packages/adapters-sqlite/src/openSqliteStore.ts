// The SQLite StateStore: the port over a StoreDb (see openStoreDb.ts); each method is an async
// wrapper around one synchronous operation.
import { storePort } from '@session-state/adapters-sql-common';
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

import { acknowledgeRead } from './acknowledgeRead';
import { appendEvents } from './appendEvents';
import { countPendingCursors } from './countPendingCursors';
import { readCursorJournal } from './cursorJournal';
import { deleteSession } from './deleteSession';
import { drain } from './drain';
import { listCursors } from './listCursors';
import { openStoreDb } from './openStoreDb';
import { pendingNotices } from './pendingNotices';
import { checkpoint, prune } from './prune';
import { readChanges, readSessionChanges } from './readChanges';
import { readHeads } from './readHeads';
import { recover } from './recover';
import { resetWatcher } from './resetWatcher';
import type { StoreDb } from './storeDb';
import type { SqliteStoreOptions } from './storeOptions';
import { unwatch } from './unwatch';
import { watch } from './watch';

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
  const operations = { append: appendEvents, watch, readChanges, readSessionChanges, readHeads, listCursors, readCursorJournal, drain, pendingNotices, countPendingCursors };
  return storePort(current, { ...operations, acknowledgeRead, restartScan: recover, resetWatcher, unwatch, deleteSession, prune: (_db, request) => pruneBatch(request), close });
}
