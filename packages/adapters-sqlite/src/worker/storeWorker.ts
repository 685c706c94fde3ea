// The main thread's handle on the store's one worker thread (thread.ts): WAL checkpoints and
// row-cap prune batches off the event loop, one job at a time, started on the first job.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { HeadRowWrite, JournalParams } from '@session-state/adapters-sql-common';

import type { StoreDb } from '../db/storeDb.js';
import type { Statements } from '../statements.js';

/** How long a stopping worker may take to finish its statement before it is terminated (ms). */
const STOP_GRACE_MS = 5000;

/** The statements the worker prepares on its connection, by their SQL text. */
const THREAD_STATEMENTS = ['capBoundary', 'capRangeEnd', 'victimSessions', 'headsOfKeys', 'cursorsOnTargets', 'insertHead', 'updateHead', 'insertJournal', 'deleteEventRange'] as const;

type Rows = readonly (readonly unknown[])[];

/** What the worker read under its write lock: [sessionKey, highest sequence deleted] per session, their heads, the cursors on them. */
export type CapRead = { readonly sessions: Rows; readonly heads: Rows; readonly cursors: Rows };

/** What the worker writes before its delete, in the same transaction. */
export type CapWrites = { readonly heads: readonly HeadRowWrite[]; readonly journal: readonly JournalParams[] };

/** What a worker batch did: events deleted, whether events beyond the cap remain, the sessions it deleted from. */
type CapBatch = { readonly deleted: number; readonly capLeft: boolean; readonly sessions: number };

/** Where and how the worker opens the file: the store's driver, file, busy timeout, synchronous and statements. */
type WorkerTarget = { readonly module: string; readonly path: string; readonly busyTimeoutMs: number; readonly synchronous: 'NORMAL' | 'FULL' | number; readonly statements: Statements };

export type ThreadData = Omit<WorkerTarget, 'statements'> & { readonly statements: Record<(typeof THREAD_STATEMENTS)[number], string> };

export type WriteMessage = { readonly type: 'write' } & CapWrites;
export type ToThread = 'stop' | { readonly type: 'checkpoint' } | { readonly type: 'cap'; readonly maxRows: number; readonly limit: number } | WriteMessage | { readonly type: 'abort' };
export type FromThread =
  | { readonly type: 'checkpointed' }
  | ({ readonly type: 'read' } & CapRead)
  | ({ readonly type: 'done' } & CapBatch)
  | { readonly type: 'rolledBack' }
  | { readonly type: 'failed'; readonly code: string; readonly message: string };

export interface StoreWorker {
  /** False once the worker could not start or died (or for an in-memory database): the store works on its own connection. */
  readonly usable: boolean;
  /** A passive checkpoint in the worker (on the store's connection when the worker is not usable); one at a time. */
  checkpoint(): Promise<void>;
  /** Deletes up to `limit` of the lowest events beyond the newest `maxRows` in one worker transaction, `plan` giving its writes. */
  cap(request: { readonly maxRows: number; readonly limit: number }, plan: (read: CapRead) => CapWrites): Promise<CapBatch>;
  /** Stops the worker after the job in progress. */
  close(): Promise<void>;
}

/** The thread's module: compiled beside this one, else its TypeScript source (type stripping), else the built one. */
function threadUrl(): URL {
  const built = new URL('./thread.js', import.meta.url);
  if (fs.existsSync(fileURLToPath(built))) return built;
  if (process.features.typescript) return new URL('./thread.ts', import.meta.url);
  return new URL('../../dist/worker/thread.js', import.meta.url);
}

/** A passive checkpoint on the store's own connection; housekeeping, so a failure is ignored. */
function checkpointHere(db: StoreDb): void {
  if (!db.client.open) return;
  try {
    db.client.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The next checkpoint does the same work.
  }
}

/** Asks the worker to stop, terminating it only after a grace: terminated while loading its driver, some drivers end the process. */
async function stopWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => void worker.terminate().then(() => resolve()), STOP_GRACE_MS);
  });
  await Promise.race([exited, late]);
  clearTimeout(timer);
}

/** The worker of the file at `target.path`; `db` is the store's connection, for checkpoints once the worker is not usable. */
export function createStoreWorker(db: () => StoreDb, target: WorkerTarget): StoreWorker {
  let worker: Worker | undefined;
  let broken = target.path === ':memory:';
  let closed = false;
  // What the job in progress waits for: the thread's next message, or its death.
  let waiting: { readonly resolve: (message: FromThread) => void; readonly reject: (error: Error) => void } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let pendingCheckpoint: Promise<void> | undefined;
  const settle = (): typeof waiting => {
    const current = waiting;
    waiting = undefined;
    return current;
  };

  const start = (): Worker => {
    const statements = Object.fromEntries(THREAD_STATEMENTS.map((name) => [name, target.statements[name].source])) as ThreadData['statements'];
    const workerData: ThreadData = { ...target, statements };
    const started = new Worker(threadUrl(), { workerData });
    started.unref();
    started.on('message', (message: FromThread) => settle()?.resolve(message));
    const die = (): void => {
      broken = true;
      worker = undefined;
      settle()?.reject(new Error('prune worker: the worker thread stopped during a batch'));
    };
    started.on('error', die);
    started.on('exit', die);
    return started;
  };

  /** Runs `work` once the job before settled; `ask` posts a message and resolves with the thread's answer. */
  const job = <T>(work: (ask: (message: ToThread) => Promise<FromThread>) => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      if (broken) throw new Error('prune worker: not running');
      const current = (worker ??= start());
      // Referenced while a job runs, so the process waits for its commit; idle, it keeps nothing alive.
      current.ref();
      const ask = (message: ToThread): Promise<FromThread> =>
        new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          current.postMessage(message);
        });
      try {
        return await work(ask);
      } finally {
        current.unref();
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    get usable() {
      return !broken;
    },
    checkpoint() {
      if (broken) return Promise.resolve(checkpointHere(db()));
      // One checkpoint at a time: a request meanwhile shares the one queued or running.
      if (pendingCheckpoint !== undefined) return pendingCheckpoint;
      const running = job((ask) => ask({ type: 'checkpoint' }))
        .then(() => undefined, () => checkpointHere(db()))
        .finally(() => {
          if (pendingCheckpoint === running) pendingCheckpoint = undefined;
        });
      pendingCheckpoint = running;
      return running;
    },
    cap(request, plan) {
      if (broken) return Promise.reject(new Error('prune worker: not running'));
      if (!Number.isSafeInteger(request.limit) || request.limit < 1) return Promise.reject(new RangeError(`prune worker: limit must be a positive integer, got ${request.limit}`));
      // A checkpoint asked for after this batch runs after it, not with one queued before.
      pendingCheckpoint = undefined;
      // The thread reads under its write lock, `plan` gives the writes (its throw rolls the batch back).
      return job(async (ask) => {
        let answer = await ask({ type: 'cap', maxRows: request.maxRows, limit: request.limit });
        let planError: unknown;
        if (answer.type === 'read') {
          let writes: CapWrites | undefined;
          try {
            writes = plan(answer);
          } catch (error) {
            planError = error;
          }
          answer = await ask(writes === undefined ? { type: 'abort' } : { type: 'write', heads: writes.heads, journal: writes.journal });
        }
        if (answer.type === 'done') return { deleted: answer.deleted, capLeft: answer.capLeft, sessions: answer.sessions };
        if (answer.type === 'failed') throw new Error(`prune worker: the batch failed and was rolled back (${answer.code}: ${answer.message})`);
        throw planError;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      broken = true;
      const stopping = worker;
      worker = undefined;
      if (stopping === undefined) return;
      stopping.removeAllListeners('exit');
      stopping.removeAllListeners('error');
      await stopWorker(stopping);
    },
  };
}
