// The JavaScript a worker thread (checkpointer.ts, pruneWorker.ts) opens its own connection with,
// on the store's driver: `openConnection({ module, path, busyTimeoutMs })` gives `pragma`, `exec`,
// `prepare` (rows as positional arrays) and `inTransaction`, whichever driver `module` names.

import type { Worker } from 'node:worker_threads';

/** Where and how a worker opens the file: the store's driver (its client's workerModule), its file, its busy timeout. */
export interface WorkerConnectionTarget {
  readonly module: string;
  readonly path: string;
  readonly busyTimeoutMs: number;
}

// Plain JavaScript, evaluated as part of each worker's source. node:sqlite's ExperimentalWarning
// (Node 22) was printed once by the main thread already; the worker's copy is not repeated.
export const WORKER_CONNECTION_SOURCE = `
function openConnection({ module, path, busyTimeoutMs }) {
  if (module === 'node:sqlite') {
    const emitWarning = process.emitWarning;
    process.emitWarning = (warning, ...rest) => { if (!String(warning).includes('SQLite')) emitWarning.call(process, warning, ...rest); };
    let sqlite;
    try { sqlite = require('node:sqlite'); } finally { process.emitWarning = emitWarning; }
    const db = new sqlite.DatabaseSync(path, { timeout: busyTimeoutMs });
    return {
      pragma: (statement) => db.exec('PRAGMA ' + statement),
      exec: (sql) => db.exec(sql),
      prepare: (sql) => { const s = db.prepare(sql); s.setReturnArrays(true); s.setAllowUnknownNamedParameters(true); return s; },
      get inTransaction() { return db.isTransaction; },
    };
  }
  const Database = require(module);
  const db = new Database(path, { timeout: busyTimeoutMs });
  return {
    pragma: (statement) => db.pragma(statement),
    exec: (sql) => db.exec(sql),
    prepare: (sql) => { const s = db.prepare(sql); if (s.reader) s.raw(true); return s; },
    get inTransaction() { return db.inTransaction; },
  };
}
// 'stop' (stopWorker) ends the thread; it is only read once the connection is open.
parentPort.on('message', (message) => { if (message === 'stop') process.exit(0); });
`;

/** How long a stopping worker may take to finish its statement before it is terminated (ms). */
const STOP_GRACE_MS = 5000;

/**
 * Ends a worker thread: asked to stop, it exits once its connection is open and its current
 * statement done. Terminating it at once could catch it loading the driver's addon, which some
 * drivers answer with a fatal error that ends the whole process; it is terminated only after
 * the grace period.
 */
export async function stopWorker(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage('stop');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => void worker.terminate().then(() => resolve()), STOP_GRACE_MS);
  });
  await Promise.race([exited, late]);
  clearTimeout(timer);
}
