// The WAL checkpoint after prune batches, off the event loop: a worker thread with its own
// connection to the file runs `PRAGMA wal_checkpoint(PASSIVE)`. Copying the WAL back to the
// database file and its fsync took 9–60 ms a batch on a loaded machine, one block of the
// gateway's event loop each time when run on the main thread.
import { Worker } from 'node:worker_threads';

import type Database from 'better-sqlite3';

import type { StoreDb } from './storeDb';

/**
 * After this many rows written since the last checkpoint (or a batch that finished a long write),
 * the store checkpoints the WAL, off the event loop (see checkpointer.ts), before its next
 * batch. A removed (or moved) row writes about one page (its session's index page) to the WAL, so the WAL
 * holds about this many pages plus one batch before SQLite starts it over from the beginning:
 * it never grows with the run (a 1,000,000-row prune once left a 716 MB WAL, when batches below
 * a row threshold skipped their checkpoint while the auto-checkpoint was off). Pages rewritten
 * by several batches in between are copied back once.
 */
export const CHECKPOINT_AFTER_ROWS = 1000;

/** Runs passive checkpoints; `run` resolves when one finished (or failed: housekeeping only). */
export interface Checkpointer {
  run(): Promise<void>;
  /** Stops the worker; a checkpoint in progress is abandoned (the next commit's auto-checkpoint covers it). */
  close(): Promise<void>;
}

// Plain JavaScript evaluated in the worker (the package may run from its TypeScript sources in
// tests, where a worker file would not load). It only ever checkpoints and answers.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
parentPort.on('message', () => {
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
 * Checkpoints the file at `path` in a worker thread, started on the first `run`. An in-memory
 * database (no WAL) and a worker that cannot start fall back to `checkpointHere` on `db`.
 */
export function createCheckpointer(db: () => StoreDb, path: string, busyTimeoutMs: number): Checkpointer {
  let worker: Worker | undefined;
  let broken = path === ':memory:';
  let waiting: (() => void) | undefined;
  let running: Promise<void> | undefined;

  const settle = (): void => {
    const resolve = waiting;
    waiting = undefined;
    running = undefined;
    resolve?.();
  };
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), path, busyTimeoutMs } });
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
      if (stopping !== undefined) await stopping.terminate();
    },
  };
}

/**
 * Runs `work` (one write transaction) with the WAL auto-checkpoint held off, so copying the WAL
 * back never lands inside its commit; the WAL schedule below checkpoints off the event loop.
 */
export function withoutAutoCheckpoint<T>(client: Database.Database, work: () => T): T {
  const autocheckpoint = client.pragma('wal_autocheckpoint', { simple: true }) as number;
  client.pragma('wal_autocheckpoint = 0');
  try {
    return work();
  } finally {
    // PRAGMA takes no bound parameters; the value is the integer just read back.
    client.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpoint)}`);
  }
}

/** When the batches of a long write (prune, the restart scan) checkpoint: see createWalSchedule. */
export interface WalSchedule {
  /** Resolves once no checkpoint is running: the next batch waits for it, so the WAL stays bounded. */
  ready(): Promise<void>;
  /** After a batch wrote `rows` rows; `last` when the long write is done (a checkpoint then covers any rows left). */
  written(rows: number, last: boolean): void;
}

/**
 * Checkpoints with `checkpointer` after every `afterRows` rows written (CHECKPOINT_AFTER_ROWS
 * unless given), and after the last batch.
 */
export function createWalSchedule(checkpointer: Checkpointer, afterRows = CHECKPOINT_AFTER_ROWS): WalSchedule {
  let sinceCheckpoint = 0;
  let checkpointing: Promise<void> | undefined;
  return {
    async ready() {
      if (checkpointing !== undefined) await checkpointing;
    },
    written(rows, last) {
      sinceCheckpoint += rows;
      if (sinceCheckpoint < afterRows && !(last && sinceCheckpoint > 0)) return;
      sinceCheckpoint = 0;
      const running = checkpointer.run();
      checkpointing = running;
      void running.then(() => {
        if (checkpointing === running) checkpointing = undefined;
      });
    },
  };
}
