// The row cap of a prune batch, off the event loop: a worker thread with its own connection to the
// file deletes the lowest sequences beyond the cap in batches of PRUNE_WORKER_BATCH_ROWS, each in
// one write transaction that also raises the prune watermarks and journals `material_kept`.
//
// Why: a batch's cost is mostly pages, not rows. Each session's events sit on their own pages of
// the (session_key, sequence) index, so a batch of the lowest sequences spread over 1,000
// sessions writes about one index page per session whatever its size; a batch small enough for
// the event loop (a few hundred rows) wrote about one page per row, and a 1,000,000-row prune
// took 8.5 times raw's one DELETE. A worker batch of 10,000 rows writes each page about once
// per ten rows deleted from it, and the event loop only plans (pruneCapPlan.ts).
//
// One transaction across two threads: the worker takes the write lock (BEGIN IMMEDIATE), reads
// what the batch deletes summed up per session with the heads and cursors of those sessions, and
// posts them; the main thread plans the head writes and journal entries with the domain's
// planners and posts them back; the worker writes them, deletes the range and commits. Nothing
// else may write on the store's own connection meanwhile (it would wait for this lock, blocking
// the event loop): the store holds every operation until the batch settles (openSqliteStore.ts).
import { Worker } from 'node:worker_threads';

import type { CapRead, CapWrites } from '../operations/prune.js';
import type { Statements } from '../statements.js';
import { stopWorker, WORKER_CONNECTION_SOURCE, type WorkerConnectionTarget } from './workerConnection.js';

/** Events one worker batch deletes at most (the store's `pruneBatchRows`). */
export const PRUNE_WORKER_BATCH_ROWS = 10_000;

/** What a worker batch did. */
export interface CapBatch {
  readonly deleted: number;
  /** Events beyond the row cap remain. */
  readonly capLeft: boolean;
  /** Sessions the batch deleted from: about the index pages it wrote (the WAL schedule's measure). */
  readonly sessions: number;
}

/** Events per table page, about (with the sequence-ordered index entries beside them): a worker batch's pages besides one index page per session. */
const EVENTS_PER_PAGE = 20;

/** What a worker batch adds to the WAL, in pages (about): the WAL schedule's measure, as one row of a batch on the store's connection. */
export function walPagesOfCapBatch(batch: CapBatch): number {
  return batch.sessions + Math.ceil(batch.deleted / EVENTS_PER_PAGE);
}

export interface PruneWorker {
  /** False once the worker could not start or died: the caller prunes on its own connection. */
  readonly usable: boolean;
  /**
   * Deletes up to `limit` of the lowest events beyond the newest `maxRows` in one transaction of
   * the worker, `plan` giving the writes of the rows it read; rejects when the batch failed
   * (rolled back). Batches run one at a time.
   */
  cap(request: { readonly maxRows: number; readonly limit: number }, plan: (read: CapRead) => CapWrites): Promise<CapBatch>;
  /** Stops the worker (after a batch in progress). */
  close(): Promise<void>;
}

/** The statements the worker prepares on its connection, by their SQL text (one definition: statements.ts). */
const WORKER_STATEMENTS = ['capBoundary', 'capRangeEnd', 'victimSessions', 'headsOfKeys', 'cursorsOnTargets', 'insertHead', 'updateHead', 'insertJournal', 'deleteEventRange'] as const;

// Plain JavaScript evaluated in the worker (the package may run from its TypeScript sources in
// tests, where a worker file would not load), as the checkpointer's.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${WORKER_CONNECTION_SOURCE}
const db = openConnection(workerData);
db.pragma('synchronous = ' + workerData.synchronous);
// The store's WAL schedule checkpoints after the batches (a commit's auto-checkpoint would copy the WAL back inside it).
db.pragma('wal_autocheckpoint = 0');
const st = {};
for (const [name, source] of Object.entries(workerData.statements)) st[name] = db.prepare(source);
let answer;
const answered = () => new Promise((resolve) => { answer = resolve; });
parentPort.on('message', (message) => {
  if (message === 'stop') return;
  if (message.type === 'cap') void cap(message);
  else if (answer !== undefined) { const resolve = answer; answer = undefined; resolve(message); }
});
async function cap({ maxRows, limit }) {
  try {
    db.exec('BEGIN IMMEDIATE');
    const boundary = st.capBoundary.get({ maxRows })?.[0];
    if (boundary === undefined) {
      db.exec('COMMIT');
      parentPort.postMessage({ type: 'done', deleted: 0, capLeft: false, sessions: 0 });
      return;
    }
    const to = st.capRangeEnd.get({ upTo: boundary, offset: limit - 1 })?.[0] ?? boundary;
    const sessions = st.victimSessions.all({ to });
    const keys = JSON.stringify(sessions.map((row) => row[0]));
    parentPort.postMessage({ type: 'read', sessions, heads: st.headsOfKeys.all({ keys }), cursors: st.cursorsOnTargets.all({ keys }) });
    const writes = await answered();
    if (writes.type !== 'write') {
      db.exec('ROLLBACK');
      parentPort.postMessage({ type: 'rolledBack' });
      return;
    }
    for (const head of writes.heads) {
      (head.insert ? st.insertHead : st.updateHead).run({ sessionKey: head.sessionKey, head: head.head, pruneWatermark: head.pruneWatermark });
    }
    for (const entry of writes.journal) st.insertJournal.run(entry);
    const deleted = st.deleteEventRange.run({ from: 0, to }).changes;
    db.exec('COMMIT');
    parentPort.postMessage({ type: 'done', deleted, capLeft: to < boundary, sessions: sessions.length });
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    // The driver's message names the failure (SQLITE_BUSY, a full disk), never a value.
    parentPort.postMessage({ type: 'failed', code: String(error && error.code), message: String(error && error.message) });
  }
}
`;

type WorkerMessage =
  | ({ readonly type: 'read' } & CapRead)
  | ({ readonly type: 'done' } & CapBatch)
  | { readonly type: 'rolledBack' }
  | { readonly type: 'failed'; readonly code: string; readonly message: string };

/** Where the worker opens the file and how, as the store's own connection (a shared database's synchronous is its number). */
export interface PruneWorkerTarget extends WorkerConnectionTarget {
  readonly synchronous: 'NORMAL' | 'FULL' | number;
  readonly statements: Statements;
}

/**
 * The prune worker of the file at `target.path`, started on the first batch. An in-memory
 * database (a worker cannot share it) is never usable; nor is a worker that failed to start or died.
 */
export function createPruneWorker(target: PruneWorkerTarget): PruneWorker {
  let worker: Worker | undefined;
  let broken = target.path === ':memory:';
  // The batch in progress: its message handler, and its failure when the worker dies.
  let onMessage: ((message: WorkerMessage) => void) | undefined;
  let onDeath: ((error: Error) => void) | undefined;
  let running: Promise<CapBatch> | undefined;

  const start = (): Worker => {
    const statements: Record<string, string> = {};
    for (const name of WORKER_STATEMENTS) statements[name] = target.statements[name].source;
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: target.module, path: target.path, busyTimeoutMs: target.busyTimeoutMs, synchronous: target.synchronous, statements },
    });
    started.unref();
    started.on('message', (message: WorkerMessage) => onMessage?.(message));
    const die = (): void => {
      broken = true;
      worker = undefined;
      onDeath?.(new Error('prune worker: the worker thread stopped during a batch'));
    };
    started.on('error', die);
    started.on('exit', die);
    return started;
  };

  const batch = (request: { readonly maxRows: number; readonly limit: number }, plan: (read: CapRead) => CapWrites): Promise<CapBatch> =>
    new Promise<CapBatch>((resolve, reject) => {
      const current = (worker ??= start());
      // Referenced while a batch runs, so the process waits for its commit; idle, it keeps nothing alive.
      current.ref();
      const settle = (): void => {
        onMessage = undefined;
        onDeath = undefined;
        current.unref();
      };
      onDeath = (error) => {
        settle();
        reject(error);
      };
      let planError: unknown;
      onMessage = (message) => {
        if (message.type === 'read') {
          try {
            const writes = plan(message);
            current.postMessage({ type: 'write', heads: writes.heads, journal: writes.journal });
          } catch (error) {
            planError = error;
            current.postMessage({ type: 'abort' });
          }
          return;
        }
        settle();
        if (message.type === 'done') resolve({ deleted: message.deleted, capLeft: message.capLeft, sessions: message.sessions });
        else if (message.type === 'rolledBack') reject(planError);
        else reject(new Error(`prune worker: the batch failed and was rolled back (${message.code}: ${message.message})`));
      };
      current.postMessage({ type: 'cap', maxRows: request.maxRows, limit: request.limit });
    });

  return {
    get usable() {
      return !broken;
    },
    cap(request, plan) {
      if (broken) return Promise.reject(new Error('prune worker: not running'));
      if (!Number.isSafeInteger(request.limit) || request.limit < 1) return Promise.reject(new RangeError(`prune worker: limit must be a positive integer, got ${request.limit}`));
      const previous = running ?? Promise.resolve(undefined);
      const next = previous.then(
        () => batch(request, plan),
        () => batch(request, plan),
      );
      running = next;
      const clear = (): void => {
        if (running === next) running = undefined;
      };
      next.then(clear, clear);
      return next;
    },
    async close() {
      if (running !== undefined) await running.catch(() => undefined);
      broken = true;
      const stopping = worker;
      worker = undefined;
      if (stopping !== undefined) {
        stopping.removeAllListeners('exit');
        stopping.removeAllListeners('error');
        await stopWorker(stopping);
      }
    },
  };
}
