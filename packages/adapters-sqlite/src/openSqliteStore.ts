// The SQLite StateStore: the port over a StoreDb (see openStoreDb.ts); each method is an async
// wrapper around one synchronous operation (prune also waits for a running WAL checkpoint).
import { storePort } from '@session-state/adapters-sql-common';
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

import { acknowledgeRead } from './acknowledgeRead';
import { appendEvents } from './appendEvents';
import { countPendingCursors } from './countPendingCursors';
import { readCursorJournal } from './cursorJournal';
import { deleteSession } from './deleteSession';
import { drain } from './drain';
import { listCursors } from './listCursors';
import { previewPrune, vacuum } from './maintenance';
import { openStoreDb } from './openStoreDb';
import { pendingNotices } from './pendingNotices';
import { createCheckpointer, createWalSchedule } from './checkpointer';
import { prune } from './prune';
import { readChanges, readSessionChanges } from './readChanges';
import { readHeads } from './readHeads';
import { recover, SCAN_CHECKPOINT_AFTER_ROWS } from './recover';
import { resetWatcher } from './resetWatcher';
import type { StoreDb } from './storeDb';
import { checkOptions, type SqliteStoreOptions } from './storeOptions';
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

  // The WAL pages of prune batches and restart-scan pages are checkpointed off the event loop,
  // never inside a batch (see checkpointer.ts); a batch waits for the checkpoints once the WAL
  // holds WAL_ROWS_BEFORE_WAIT rows' pages (the scan: once a checkpoint is due), so the WAL stays bounded.
  const checkpointer = createCheckpointer(() => db, options.path, checkOptions(options));
  const walSchedule = createWalSchedule(checkpointer);
  const scanWalSchedule = createWalSchedule(checkpointer, SCAN_CHECKPOINT_AFTER_ROWS, SCAN_CHECKPOINT_AFTER_ROWS);
  const pruneBatch = async (request: PruneRequest): Promise<PruneBatch> => {
    await walSchedule.ready();
    const { batch, rowsRemoved } = prune(current(), request);
    walSchedule.written(rowsRemoved, batch.done);
    return batch;
  };

  const close = async (): Promise<void> => {
    await checkpointer.close();
    if (db.client.open) db.client.close();
  };
  // The port wiring (whole-ms clocks, StoreError rejections) is adapters-sql-common's storePort.
  const operations = { append: appendEvents, watch, readChanges, readSessionChanges, readHeads, listCursors, readCursorJournal, drain, pendingNotices, countPendingCursors };
  return storePort(current, {
    ...operations,
    acknowledgeRead,
    restartScan: (db, now, owns) => recover(db, now, owns, scanWalSchedule),
    resetWatcher,
    unwatch,
    deleteSession,
    prune: (_db, request) => pruneBatch(request),
    previewPrune,
    vacuum: (db) => vacuum(db, options.path),
    close,
  });
}
