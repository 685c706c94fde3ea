// The SQLite StateStore: the port over a StoreDb (see openStoreDb.ts); each method is an async
// wrapper around one synchronous operation, held while a prune worker batch holds the write lock
// (prune also waits for the WAL checkpoints when the WAL reached its bound).
import { storePort } from '@session-state/adapters-sql-common';
import type { CursorPair, PruneBatch, PruneRequest, SessionKey, StateStore } from '@session-state/domain';

import { acknowledgeRead } from './acknowledgeRead.js';
import { appendEvents } from './appendEvents.js';
import { countPendingCursors } from './countPendingCursors.js';
import { readCursorJournal } from './cursorJournal.js';
import { deleteSession } from './deleteSession.js';
import { drain } from './drain.js';
import { listCursors } from './listCursors.js';
import { previewPrune, vacuum } from './maintenance.js';
import { openStoreDb } from './openStoreDb.js';
import { pendingNotices } from './pendingNotices.js';
import { createCheckpointer, createWalSchedule, type Checkpointer } from './checkpointer.js';
import { createCommitCheckpoints, type CommitCheckpoints } from './commitCheckpoints.js';
import { OWN_CONNECTION_BATCH_ROWS, prune } from './prune.js';
import { planCapWrites, type CapRead } from './pruneCapPlan.js';
import { createPruneWorker, PRUNE_WORKER_BATCH_ROWS, walPagesOfCapBatch } from './pruneWorker.js';
import { readChanges, readSessionChanges } from './readChanges.js';
import { readHeads } from './readHeads.js';
import { recover, SCAN_CHECKPOINT_AFTER_ROWS } from './recover.js';
import { resetWatcher } from './resetWatcher.js';
import type { StoreDb } from './storeDb.js';
import { checkDurability, checkOptions, type SqliteStoreOptions } from './storeOptions.js';
import { unwatch } from './unwatch.js';
import { watch } from './watch.js';
import { createWriteGate, type WriteGate } from './writeGate.js';

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
  // holds WAL_ROWS_BEFORE_WAIT rows' pages, so the WAL stays bounded.
  const checkpointer = createCheckpointer(() => db, options.path, checkOptions(options));
  const walSchedule = createWalSchedule(checkpointer);
  const scanWalSchedule = createWalSchedule(checkpointer, SCAN_CHECKPOINT_AFTER_ROWS, SCAN_CHECKPOINT_AFTER_ROWS);

  // The row cap is pruned in a worker thread (pruneWorker.ts) while it runs; every operation
  // waits for a worker batch in progress (writeGate.ts), so none meets its write lock.
  const pruneWorker = createPruneWorker({ path: options.path, busyTimeoutMs: checkOptions(options), synchronous: checkDurability(options), statements: db.statements });
  const gate = createWriteGate();
  const pruneBatchRows = options.readOnly !== true && pruneWorker.usable ? PRUNE_WORKER_BATCH_ROWS : undefined;

  /** One part of a batch on the store's own connection: all of it without the hint, else at most OWN_CONNECTION_BATCH_ROWS events. */
  const pruneOwnPart = (request: PruneRequest, room: number, capInline: boolean) =>
    prune(current(), { ...request, batchSize: pruneBatchRows === undefined ? room : Math.min(room, OWN_CONNECTION_BATCH_ROWS) }, { capInline });

  // One port batch: `batchSize` events unless done first (the facade's accounting relies on it),
  // and at most that many cursors and journal entries, in parts: on the store's connection at most
  // OWN_CONNECTION_BATCH_ROWS rows each, a turn of the event loop between them; the row cap in
  // one worker batch once no aged event is left.
  const pruneBatch = async (request: PruneRequest): Promise<PruneBatch> => {
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
      const room = request.batchSize - eventsDeleted;
      // The row cap counts what ages out first: it waits until no aged event is left.
      if (useWorker && own.capLeft && !own.agedLeft && room > 0) {
        walSchedule.written(own.rowsRemoved, false);
        const plan = (read: CapRead) => planCapWrites(current(), read, request.now);
        const capped = await gate.hold(pruneWorker.cap({ maxRows: request.maxRows, limit: room }, plan));
        eventsDeleted += capped.deleted;
        const done = own.restDone && !capped.capLeft;
        walSchedule.written(walPagesOfCapBatch(capped), done);
        return { eventsDeleted, expiredCursors, done, ...carried() };
      }
      walSchedule.written(own.rowsRemoved, own.batch.done);
      const full = request.batchSize <= Math.max(eventsDeleted, expiredCursors.length, journalDeleted);
      if (own.batch.done || full || own.rowsRemoved === 0 || pruneBatchRows === undefined) return { eventsDeleted, expiredCursors, done: own.batch.done, ...carried() };
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  // Everyday writes are checkpointed off the event loop too, never inside a commit (commitCheckpoints.ts).
  const commitCheckpoints = options.readOnly !== true && options.path !== ':memory:' ? offLoopCheckpoints(db, checkpointer, gate) : undefined;

  const close = async (): Promise<void> => {
    commitCheckpoints?.stop();
    await gate.idle();
    await pruneWorker.close();
    await checkpointer.close();
    if (db.client.open) db.client.close();
  };
  // Every operation on the store's own connection runs once no worker batch holds the write lock.
  const gated =
    <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R | Promise<R>) =>
    (_db: StoreDb, ...args: A): R | Promise<R> =>
      gate.run(() => operation(current(), ...args));
  /**
   * A write transaction on the store's own connection: its WAL frames are checkpointed off the
   * event loop. `operationsOf` counts its write operations (an append's records), 1 unless given.
   */
  const gatedWrite = <A extends unknown[], R>(operation: (db: StoreDb, ...args: A) => R, operationsOf?: (...args: A) => number) =>
    gated((db: StoreDb, ...args: A): R => {
      const result = operation(db, ...args);
      commitCheckpoints?.committed(operationsOf?.(...args));
      return result;
    });
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
    acknowledgeRead: gatedWrite(acknowledgeRead),
    restartScan: gated((db, now: number, owns?: (watcher: SessionKey) => boolean) => recover(db, now, owns, scanWalSchedule)),
    resetWatcher: gatedWrite(resetWatcher),
    unwatch: gatedWrite(unwatch),
    deleteSession: gatedWrite(deleteSession),
    prune: gated((_db, request: PruneRequest) => pruneBatch(request)),
    previewPrune: gated(previewPrune),
    vacuum: gated((db) => vacuum(db, options.path)),
    close,
    ...(pruneBatchRows !== undefined ? { pruneBatchRows } : {}),
  });
}

/** `PRAGMA wal_checkpoint(NOOP)` (which only reads the WAL's size) came with SQLite 3.51.0; an older one runs it as PASSIVE. */
const readsWalSize = (client: StoreDb['client']): boolean => {
  const version = (client.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v.split('.').map(Number);
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
  const noop = db.client.prepare('PRAGMA wal_checkpoint(NOOP)').raw();
  const autocheckpoint = db.client.pragma('wal_autocheckpoint', { simple: true }) as number;
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
