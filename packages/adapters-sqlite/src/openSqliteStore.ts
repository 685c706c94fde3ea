// The SQLite StateStore: composition only. Each port method runs one operation on the store's
// connection once nothing holds the write gate (a worker batch, a WAL wait).
import { storeLogger, storePort } from '@session-state/adapters-sql-common';
import type { CursorSignalListener, CursorSignalSource, OverviewSource, PruneRequest, ScanRequest, StateStore, StoreMaintenance } from '@session-state/domain';

import { openStoreDb, type OpenedStoreDb } from './db/openStoreDb.js';
import type { StoreDb } from './db/storeDb.js';
import { watchFileIdentity } from './file/fileIdentity.js';
import { listenOnFile } from './file/fileSignals.js';
import { assertNoForeignTransaction } from './file/sharedDatabase.js';
import { resolveStatePath } from './file/statePath.js';
import { acknowledgeRead } from './operations/acknowledgeRead.js';
import { appendBatch, drain } from './operations/drain.js';
import { readCursorJournal } from './operations/journal.js';
import { previewPrune, vacuum } from './operations/maintenance.js';
import { createPruneProgress, pruneBatch } from './operations/pruneBatch.js';
import { listCursors, readChanges, readHeads, readOverview } from './operations/reads.js';
import { deleteSession, resetWatcher, unwatch } from './operations/removal.js';
import { scanPending } from './operations/scanPending.js';
import { watch } from './operations/watch.js';

import { checkOptions, type SqliteStoreOptions } from './storeOptions.js';
import { createStoreWorker } from './worker/storeWorker.js';
import { CHECKPOINT_AFTER_PAGES, createWalSchedule, createWriteGate, offLoopCheckpoints, WAL_FRAMES_BEFORE_WAIT, walSizeOn } from './worker/walBound.js';

/**
 * The SQLite store (the port, its overview and maintenance); several processes may share its file (WAL, `BEGIN IMMEDIATE` writes).
 *
 * @example const store = openSqliteStore({ path: 'state.db' });
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const checked = checkOptions(options);
  const logger = storeLogger('Sqlite', options.logger);
  // Every connection (the store's, its worker's, a snapshot's) opens the resolved path.
  const resolved = options.path === undefined ? options : { ...options, path: resolveStatePath(options.path) };
  let db: OpenedStoreDb = openStoreDb(resolved);
  const { file, owned } = db;
  const readOnly = options.readOnly === true;
  // A writer's file removed or replaced under it: its writes fail from then on.
  const identity = owned && !readOnly && file !== ':memory:' ? watchFileIdentity(file, logger) : undefined;

  // The database every operation but `close` runs on: a stale read-only snapshot is replaced first.
  const current = (): StoreDb => {
    if (db.client.open && db.isStale?.() === true) {
      const fresh = openStoreDb(resolved);
      db.client.close();
      db = fresh;
    }
    if (!owned && db.client.open) assertNoForeignTransaction(db.client);
    return db;
  };

  const synchronous = owned ? checked.synchronous : Number(db.client.pragma('synchronous'));
  const worker = createStoreWorker(() => db, { module: db.client.workerModule, path: file, busyTimeoutMs: checked.busyTimeoutMs, synchronous, statements: db.statements });
  const gate = createWriteGate();
  // On a shared database the auto-checkpoint stays as the gateway set it.
  const walSize = owned && !readOnly && file !== ':memory:' ? walSizeOn(db.client) : undefined;
  const pruneDeps = { current, worker, gate, wal: createWalSchedule(worker, CHECKPOINT_AFTER_PAGES, WAL_FRAMES_BEFORE_WAIT, walSize), readOnly };
  const progress = createPruneProgress(logger);
  const scanWal = createWalSchedule(worker, WAL_FRAMES_BEFORE_WAIT, WAL_FRAMES_BEFORE_WAIT, walSize);
  const commitCheckpoints = walSize === undefined ? undefined : offLoopCheckpoints(db.client, worker, gate, walSize);

  const gated = <A extends unknown[], R>(operation: Operation<A, R>): Operation<A, R> => (_db, ...args) => gate.run(() => operation(current(), ...args));
  /** An operation that writes: refused once the file was removed or replaced under the store. */
  const writing = <A extends unknown[], R>(operation: Operation<A, R>): Operation<A, R> => (db, ...args) => {
    identity?.requireSameFile();
    return operation(db, ...args);
  };
  /** A write transaction on the store's connection, its commit counted for the WAL's bound. */
  const gatedWrite = <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R) =>
    gated(writing((db: StoreDb, ...args: A): R => {
      const result = operation(db, ...args);
      commitCheckpoints?.committed();
      return result;
    }));

  // Other processes' commits to the file (the gateway's own database's too); a private in-memory database or a snapshot has none.
  const listen = file === ':memory:' || readOnly ? undefined : (listener: CursorSignalListener) => listenOnFile(file, () => Number(db.client.pragma('data_version')), listener);
  return storePort(current, {
    append: gatedWrite(appendBatch),
    watch: gatedWrite(watch),
    readChanges: gated(readChanges),
    readHeads: gated(readHeads),
    listCursors: gated(listCursors),
    readCursorJournal: gated(readCursorJournal),
    drain: gatedWrite(drain),
    readOverview: gated(readOverview),
    acknowledgeRead: gatedWrite(acknowledgeRead),
    scanPending: gated((db, request: ScanRequest) => (request.raise === undefined ? scanPending : writing(scanPending))(db, request, scanWal)),
    resetWatcher: gatedWrite(resetWatcher),
    unwatch: gatedWrite(unwatch),
    deleteSession: gatedWrite(deleteSession),
    prune: gated(writing(async (_db, request: PruneRequest) => {
      const { batch, removed } = await pruneBatch(pruneDeps, request);
      return progress.settle(request, batch, removed);
    })),
    previewPrune: gated(previewPrune),
    vacuum: gated(writing((db) => vacuum(db, file))),
    async close() {
      identity?.stop();
      commitCheckpoints?.stop();
      await gate.idle();
      await worker.close();
      if (owned && db.client.open) db.client.close();
    },
  }, listen);
}

/** What `openSqliteStore` gives: the port, the inspector's overview, the CLI's maintenance and, on a file, cross-process signals. */
export type SqliteStore = StateStore & OverviewSource & StoreMaintenance & Partial<CursorSignalSource>;

type Operation<A extends unknown[], R> = (db: StoreDb, ...args: A) => R | Promise<R>;
