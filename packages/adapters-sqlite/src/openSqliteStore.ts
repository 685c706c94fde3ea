// The SQLite StateStore: the port over a StoreDb (see openStoreDb.ts); each method is an async
// wrapper around one synchronous operation, held while a prune worker batch holds the write lock
// (prune also waits for the WAL checkpoints when the WAL reached its bound).
import { storePort } from '@session-state/adapters-sql-common';
import type { CursorPair, Logger, PruneBatch, PruneRequest, SessionKey, StateStore } from '@session-state/domain';

import { acknowledgeRead } from './operations/acknowledgeRead.js';
import { appendEvents } from './operations/append.js';
import { readCursorJournal } from './operations/journal.js';
import { drain } from './operations/drain.js';
import { watchFileIdentity } from './file/fileIdentity.js';
import { previewPrune, vacuum } from './operations/maintenance.js';
import { openStoreDb } from './db/openStoreDb.js';
import { createCheckpointer, createWalSchedule, type Checkpointer } from './worker/checkpointer.js';
import { createCommitCheckpoints, type CommitCheckpoints } from './worker/commitCheckpoints.js';
import { createPruneProgress, OWN_CONNECTION_BATCH_ROWS, planCapWrites, prune, type CapRead } from './operations/prune.js';
import { createPruneWorker, PRUNE_WORKER_BATCH_ROWS, walPagesOfCapBatch } from './worker/pruneWorker.js';
import { countPendingCursors, listCursors, pendingNotices, readChanges, readHeads, readOverview, readSessionChanges } from './operations/reads.js';
import { deleteSession, resetWatcher, unwatch } from './operations/removal.js';
import { restartScan, SCAN_CHECKPOINT_AFTER_ROWS } from './operations/restartScan.js';
import { assertNoForeignTransaction } from './file/sharedDatabase.js';
import { resolveStatePath } from './file/statePath.js';
import { storeLogger } from './storeLogger.js';
import type { StoreDb } from './db/storeDb.js';
import { checkDurability, checkOptions, type SqliteStoreOptions } from './storeOptions.js';
import { watch } from './operations/watch.js';
import { createWriteGate, type WriteGate } from './worker/writeGate.js';

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
  checkOptions(options);
  // Every connection (the store's, its workers', a snapshot's) opens the resolved path, where SQLite keeps the -wal and -shm.
  const resolved = options.path === undefined ? options : { ...options, path: resolveStatePath(options.path) };
  return openResolvedStore(resolved, storeLogger(options.logger));
}

/** openSqliteStore once `options.path` is resolved (statePath.ts). */
function openResolvedStore(options: SqliteStoreOptions, logger: Logger): StateStore {
  const opened = openStoreDb(options);
  const { file, owned } = opened;
  let db: StoreDb = opened;
  // A writer's file removed or replaced under it: its writes fail from then on (fileIdentity.ts).
  const identity = owned && options.readOnly !== true && file !== ':memory:' ? watchFileIdentity(file, logger) : undefined;
  const progress = createPruneProgress(logger);

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
    if (!owned && db.client.open) assertNoForeignTransaction(db.client);
    return db;
  };

  // The WAL pages of prune batches and restart-scan pages are checkpointed off the event loop,
  // never inside a batch (see checkpointer.ts); a batch waits for the checkpoints once the WAL
  // holds WAL_ROWS_BEFORE_WAIT rows' pages, so the WAL stays bounded.
  const busyTimeoutMs = checkOptions(options);
  const checkpointer = createCheckpointer(() => db, { module: db.client.workerModule, path: file, busyTimeoutMs });
  const walSchedule = createWalSchedule(checkpointer);
  const scanWalSchedule = createWalSchedule(checkpointer, SCAN_CHECKPOINT_AFTER_ROWS, SCAN_CHECKPOINT_AFTER_ROWS);

  // The row cap is pruned in a worker thread (pruneWorker.ts) while it runs; every operation
  // waits for a worker batch in progress (writeGate.ts), so none meets its write lock.
  const synchronous = owned ? checkDurability(options) : Number(db.client.pragma('synchronous'));
  const pruneWorker = createPruneWorker({ module: db.client.workerModule, path: file, busyTimeoutMs, synchronous, statements: db.statements });
  const gate = createWriteGate();
  const pruneBatchRows = options.readOnly !== true && pruneWorker.usable ? PRUNE_WORKER_BATCH_ROWS : undefined;

  /** One part of a batch on the store's own connection: all of it without the hint, else at most OWN_CONNECTION_BATCH_ROWS events. */
  const pruneOwnPart = (request: PruneRequest, room: number, capInline: boolean) =>
    prune(current(), { ...request, batchSize: pruneBatchRows === undefined ? room : Math.min(room, OWN_CONNECTION_BATCH_ROWS) }, { capInline });

  // One port batch: `batchSize` events unless done first (the facade's accounting relies on it),
  // and at most that many cursors and journal entries, in parts: on the store's connection at most
  // OWN_CONNECTION_BATCH_ROWS rows each, a turn of the event loop between them; the row cap in
  // one worker batch once no aged event is left.
  const pruneBatch = async (request: PruneRequest): Promise<{ readonly batch: PruneBatch; readonly removed: number }> => {
    let removed = 0;
    let eventsDeleted = 0;
    let journalDeleted = 0;
    const expiredCursors: CursorPair[] = [];
    // Each part's journal window resumes where the previous part's stopped (PruneRequest.journalAfter).
    let journalAfter = request.journalAfter;
    const carried = (): { journalAfter?: number } => (journalAfter === undefined ? {} : { journalAfter });
    for (;;) {
      await walSchedule.ready();
      const useWorker = pruneWorker.usable && options.readOnly !== true;
      const ownRoom = request.batchSize - Math.max(eventsDeleted, expiredCursors.length, journalDeleted);
      const own = pruneOwnPart({ ...request, ...carried() }, ownRoom, !useWorker);
      journalAfter = own.batch.journalAfter ?? journalAfter;
      eventsDeleted += own.batch.eventsDeleted;
      expiredCursors.push(...own.batch.expiredCursors);
      journalDeleted += own.rowsRemoved - own.batch.eventsDeleted - own.batch.expiredCursors.length;
      removed += own.rowsRemoved;
      const room = request.batchSize - eventsDeleted;
      // The row cap counts what ages out first: it waits until no aged event is left.
      if (useWorker && own.capLeft && !own.agedLeft && room > 0) {
        walSchedule.written(own.rowsRemoved, false);
        const plan = (read: CapRead) => planCapWrites(current(), read, request.now);
        const capped = await gate.hold(pruneWorker.cap({ maxRows: request.maxRows, limit: room }, plan));
        eventsDeleted += capped.deleted;
        const done = own.restDone && !capped.capLeft;
        walSchedule.written(walPagesOfCapBatch(capped), done);
        return { batch: { eventsDeleted, expiredCursors, done, ...carried() }, removed: removed + capped.deleted };
      }
      walSchedule.written(own.rowsRemoved, own.batch.done);
      const full = request.batchSize <= Math.max(eventsDeleted, expiredCursors.length, journalDeleted);
      if (own.batch.done || full || own.rowsRemoved === 0 || pruneBatchRows === undefined) return { batch: { eventsDeleted, expiredCursors, done: own.batch.done, ...carried() }, removed };
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  // Everyday writes are checkpointed off the event loop too, never inside a commit (commitCheckpoints.ts).
  // On a shared database the auto-checkpoint stays as the gateway set it.
  const commitCheckpoints = owned && options.readOnly !== true && file !== ':memory:' ? offLoopCheckpoints(db, checkpointer, gate) : undefined;

  const close = async (): Promise<void> => {
    identity?.stop();
    commitCheckpoints?.stop();
    await gate.idle();
    await pruneWorker.close();
    await checkpointer.close();
    if (owned && db.client.open) db.client.close();
  };
  // Every operation on the store's own connection runs once no worker batch holds the write lock.
  const gated =
    <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R | Promise<R>) =>
    (_db: StoreDb, ...args: A): R | Promise<R> =>
      gate.run(() => operation(current(), ...args));
  /** An operation that writes: refused once the file was removed or replaced under the store. */
  const writing =
    <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R | Promise<R>) =>
    (db: StoreDb, ...args: A): R | Promise<R> => {
      identity?.requireSameFile();
      return operation(db, ...args);
    };
  /**
   * A write transaction on the store's own connection: its WAL frames are checkpointed off the
   * event loop. `operationsOf` counts its write operations (an append's records), 1 unless given.
   */
  const gatedWrite = <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R | Promise<R>, operationsOf?: (...args: A) => number) =>
    gated(writing((db: StoreDb, ...args: A): R | Promise<R> => {
      const result = operation(db, ...args);
      const committed = (): void => commitCheckpoints?.committed(operationsOf?.(...args));
      if (!(result instanceof Promise)) {
        committed();
        return result;
      }
      // An append whose fan-out is paged (fanOut.ts): every other operation waits for its pages.
      return gate.hold(result.finally(committed));
    }));
  // The port wiring (whole-ms clocks, StoreError rejections) is adapters-sql-common's storePort.
  return storePort(current, {
    append: gatedWrite(appendEvents, (batch) => batch.length),
    watch: gatedWrite(watch),
    readChanges: gated(readChanges),
    readSessionChanges: gated(readSessionChanges),
    readHeads: gated(readHeads),
    listCursors: gated(listCursors),
    readCursorJournal: gated(readCursorJournal),
    drain: gatedWrite(drain),
    pendingNotices: gated(pendingNotices),
    countPendingCursors: gated(countPendingCursors),
    readOverview: gated(readOverview),
    acknowledgeRead: gatedWrite(acknowledgeRead),
    restartScan: gated(writing((db, now: number, owns?: (watcher: SessionKey) => boolean) => restartScan(db, now, owns, scanWalSchedule))),
    resetWatcher: gatedWrite(resetWatcher),
    unwatch: gatedWrite(unwatch),
    deleteSession: gatedWrite(deleteSession),
    prune: gated(
      writing(async (_db, request: PruneRequest) => {
        const { batch, removed } = await pruneBatch(request);
        return progress.settle(request, batch, removed);
      }),
    ),
    previewPrune: gated(previewPrune),
    vacuum: gated(writing((db) => vacuum(db, file))),
    close,
    ...(pruneBatchRows !== undefined ? { pruneBatchRows } : {}),
  });
}

/** `PRAGMA wal_checkpoint(NOOP)` (which only reads the WAL's size) came with SQLite 3.51.0; an older one runs it as PASSIVE. */
const readsWalSize = (client: StoreDb['client']): boolean => {
  const version = String(client.prepare('SELECT sqlite_version() AS v').get()?.v).split('.').map(Number);
  const [major = 0, minor = 0] = version;
  return major > 3 || (major === 3 && minor >= 51);
};

/**
 * Turns the connection's auto-checkpoint off and schedules checkpoints in the worker
 * (commitCheckpoints.ts); back on if the worker cannot run. Undefined (the auto-checkpoint stays)
 * with an SQLite that cannot read the WAL's size.
 */
function offLoopCheckpoints(db: StoreDb, checkpointer: Checkpointer, gate: WriteGate): CommitCheckpoints | undefined {
  if (!readsWalSize(db.client)) return undefined;
  const noop = db.client.prepareRaw('PRAGMA wal_checkpoint(NOOP)');
  const autocheckpoint = db.client.pragma('wal_autocheckpoint') as number;
  db.client.pragma('wal_autocheckpoint = 0');
  return createCommitCheckpoints(checkpointer, gate, {
    walSize: () => {
      const [, walFrames = 0, checkpointed = 0] = noop.get() as number[];
      return { walFrames, checkpointed };
    },
    onFallback: () => {
      // PRAGMA takes no bound parameters; the value is the integer read back at open.
      if (db.client.open) db.client.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpoint)}`);
    },
  });
}
