// The WAL checkpoint after prune batches, off the event loop: a worker thread with its own
// connection to the file runs `PRAGMA wal_checkpoint(PASSIVE)`. Copying the WAL back to the
// database file and its fsync took 9–60 ms a batch on a loaded machine, one block of the
// gateway's event loop each time when run on the main thread.
import { Worker } from 'node:worker_threads';

import type { SqliteClient } from '../driver/driver.js';
import type { StoreDb } from '../db/storeDb.js';
import { stopWorker, WORKER_CONNECTION_SOURCE, type WorkerConnectionTarget } from './workerConnection.js';

/**
 * After this many rows written since the last checkpoint started (or a batch that finished a long
 * write), the store starts a checkpoint of the WAL, off the event loop (see checkpointer.ts). A
 * removed (or moved) row writes about one page (its session's index page) to the WAL; a prune
 * worker batch counts its pages instead (walPagesOfCapBatch). Pages rewritten by several batches
 * in between are copied back once. The WAL's bound is WAL_ROWS_BEFORE_WAIT (a 1,000,000-row
 * prune once left a 716 MB WAL, when batches below a row threshold skipped their checkpoint
 * while the auto-checkpoint was off).
 */
export const CHECKPOINT_AFTER_ROWS = 1000;

/** Runs passive checkpoints; `run` resolves when one finished (or failed: housekeeping only). */
export interface Checkpointer {
  run(): Promise<void>;
  /** False once checkpoints run on the store's own connection (an in-memory database, or a worker that could not start). */
  readonly offThread: boolean;
  /** Stops the worker; a checkpoint in progress is abandoned (a later checkpoint, or closing the file's last connection, copies the WAL back). */
  close(): Promise<void>;
}

// Plain JavaScript evaluated in the worker (the package may run from its TypeScript sources in
// tests, where a worker file would not load). It only ever checkpoints and answers.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${WORKER_CONNECTION_SOURCE}
const db = openConnection(workerData);
parentPort.on('message', (message) => {
  if (message === 'stop') return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Housekeeping: the next checkpoint, or a commit's auto-checkpoint, does the same work.
  }
  parentPort.postMessage('done');
});
`;

/**
 * A passive checkpoint on the store's own connection: copies what the WAL holds back to the
 * database file without waiting for other connections' readers. Housekeeping only, so a failure
 * is ignored: the auto-checkpoint of a later commit does the same work.
 */
export function checkpointHere(db: StoreDb): void {
  if (!db.client.open) return;
  try {
    db.client.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // See above: nothing is lost, the next auto-checkpoint retries.
  }
}

/**
 * Checkpoints the file at `target.path` in a worker thread (on the store's driver), started on the
 * first `run`. An in-memory database (no WAL) and a worker that cannot start fall back to
 * `checkpointHere` on `db`.
 */
export function createCheckpointer(db: () => StoreDb, target: WorkerConnectionTarget): Checkpointer {
  let worker: Worker | undefined;
  let broken = target.path === ':memory:';
  let waiting: (() => void) | undefined;
  let running: Promise<void> | undefined;

  const settle = (): void => {
    const resolve = waiting;
    waiting = undefined;
    running = undefined;
    resolve?.();
  };
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: target });
    started.unref();
    started.on('message', settle);
    const fail = (): void => {
      broken = true;
      worker = undefined;
      settle();
    };
    started.on('error', fail);
    started.on('exit', fail);
    return started;
  };

  return {
    get offThread() {
      return !broken;
    },
    run() {
      if (running !== undefined) return running;
      if (broken) {
        checkpointHere(db());
        return Promise.resolve();
      }
      worker ??= start();
      running = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      worker.postMessage('checkpoint');
      return running;
    },
    async close() {
      broken = true;
      const stopping = worker;
      worker = undefined;
      settle();
      if (stopping !== undefined) await stopWorker(stopping);
    },
  };
}

/**
 * Runs `work` (one write transaction) with the WAL auto-checkpoint held off, so copying the WAL
 * back never lands inside its commit; the WAL schedule below checkpoints off the event loop.
 */
export function withoutAutoCheckpoint<T>(client: SqliteClient, work: () => T): T {
  const autocheckpoint = client.pragma('wal_autocheckpoint') as number;
  client.pragma('wal_autocheckpoint = 0');
  try {
    return work();
  } finally {
    // PRAGMA takes no bound parameters; the value is the integer just read back.
    client.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpoint)}`);
  }
}

/**
 * Rows a long write may add to the WAL while checkpoints run beside its batches; at this many,
 * the next batch waits until every row written so far is checkpointed, so its commit starts the
 * WAL over from the beginning. A pruned row writes at most about one page (its session's index
 * page), so the WAL holds about this many pages plus one batch (16 MB at 4 KB pages).
 */
export const WAL_ROWS_BEFORE_WAIT = 4000;

/** When the batches of a long write (prune, the restart scan) checkpoint: see createWalSchedule. */
export interface WalSchedule {
  /**
   * Resolves at once while the WAL is below its bound, so the next batch runs beside a running
   * checkpoint; at the bound, once every row written so far is checkpointed.
   */
  ready(): Promise<void>;
  /** After a batch wrote `rows` rows; `last` when the long write is done (a checkpoint then covers any rows left). */
  written(rows: number, last: boolean): void;
}

/**
 * Checkpoints with `checkpointer` after every `afterRows` rows written (CHECKPOINT_AFTER_ROWS
 * unless given), and after the last batch; one checkpoint at a time, the rows written while it
 * runs go to the next. Batches do not wait for a checkpoint (copying the WAL back took as long
 * as the batch itself, and waiting for it halved a prune's pace) until `walRows` rows
 * (WAL_ROWS_BEFORE_WAIT unless given) were written since the WAL last started over.
 */
export function createWalSchedule(checkpointer: Checkpointer, afterRows = CHECKPOINT_AFTER_ROWS, walRows = WAL_ROWS_BEFORE_WAIT): WalSchedule {
  // Rows written since the running (or last) checkpoint started, and since the WAL last started over.
  let sinceCheckpoint = 0;
  let sinceWalStart = 0;
  let lastWritten = false;
  let checkpointing: Promise<void> | undefined;

  const start = (): Promise<void> => {
    sinceCheckpoint = 0;
    const running = checkpointer.run().then(() => {
      checkpointing = undefined;
      if (sinceCheckpoint >= afterRows || (lastWritten && sinceCheckpoint > 0)) void start();
    });
    checkpointing = running;
    return running;
  };

  return {
    async ready() {
      // Decided here, before the batch, and not when a checkpoint ends: a batch may be writing
      // then, its rows not yet counted. With every row checkpointed, this batch's commit starts
      // the WAL over (the first write after a complete checkpoint does).
      if (sinceWalStart >= walRows) {
        while (checkpointing !== undefined || sinceCheckpoint > 0) await (checkpointing ?? start());
      }
      if (checkpointing === undefined && sinceCheckpoint === 0) sinceWalStart = 0;
    },
    written(rows, last) {
      sinceCheckpoint += rows;
      sinceWalStart += rows;
      lastWritten = last;
      if (checkpointing !== undefined || sinceCheckpoint === 0) return;
      if (sinceCheckpoint >= afterRows || last) void start();
    },
  };
}
