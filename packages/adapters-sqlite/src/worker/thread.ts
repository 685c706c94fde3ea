// The store's worker thread: its own connection runs WAL checkpoints and row-cap prune batches, one job at a
// time. It imports no package module at run time, so Node can also run it from its TypeScript source.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

import type { RawStatement, SqliteClient } from '../driver/driver.js';
import type { FromThread, ThreadData, ToThread, WriteMessage } from './storeWorker.js';

/** What the thread needs of its connection; pragmas run through `exec`. */
type Connection = Pick<SqliteClient, 'exec' | 'inTransaction'> & { prepare(sql: string): RawStatement };
/** A statement of either driver: better-sqlite3's reads rows as arrays in `raw` mode, node:sqlite's after `setReturnArrays`. */
type NativeStatement = RawStatement & Partial<{ readonly reader: boolean; raw(on: true): RawStatement; setReturnArrays(on: true): void; setAllowUnknownNamedParameters(on: true): void }>;
/** better-sqlite3's `Database` or node:sqlite's `DatabaseSync` (which says `isTransaction`). */
type NativeDatabase = { exec(sql: string): void; prepare(sql: string): NativeStatement; readonly inTransaction?: boolean; readonly isTransaction?: boolean };
type DatabaseClass = new (path: string, options: { readonly timeout: number }) => NativeDatabase;

const load = createRequire(import.meta.url);

/** The database class of the driver `module` names; node:sqlite's ExperimentalWarning was printed by the main thread already. */
function databaseClass(module: string): DatabaseClass {
  if (module !== 'node:sqlite') return load(module) as DatabaseClass;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (!String(warning).includes('SQLite')) emitWarning.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return (load('node:sqlite') as { DatabaseSync: DatabaseClass }).DatabaseSync;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Opens `path` with the driver `module` names, its statements as the main thread's client prepares them. */
function openConnection({ module, path, busyTimeoutMs }: ThreadData): Connection {
  const db = new (databaseClass(module))(path, { timeout: busyTimeoutMs });
  return {
    exec: (sql) => db.exec(sql),
    prepare: (sql) => {
      const statement = db.prepare(sql);
      if (statement.raw !== undefined) return statement.reader === true ? statement.raw(true) : statement;
      statement.setReturnArrays?.(true);
      statement.setAllowUnknownNamedParameters?.(true);
      return statement;
    },
    get inTransaction() {
      return db.isTransaction ?? db.inTransaction === true;
    },
  };
}

const data = workerData as ThreadData;
const port = parentPort as NonNullable<typeof parentPort>;
const db = openConnection(data);
db.exec(`PRAGMA synchronous = ${data.synchronous}`);
// The main thread schedules the checkpoints; a commit here never copies the WAL back itself.
db.exec('PRAGMA wal_autocheckpoint = 0');
type ThreadStatements = Record<keyof ThreadData['statements'], RawStatement>;
const st = Object.fromEntries(Object.entries(data.statements).map(([name, source]) => [name, db.prepare(source)])) as ThreadStatements;

const post = (message: FromThread): void => port.postMessage(message);
let answer: ((message: WriteMessage | { readonly type: 'abort' }) => void) | undefined;
const answered = (): Promise<WriteMessage | { readonly type: 'abort' }> => new Promise((resolve) => (answer = resolve));

function checkpoint(): void {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Housekeeping: the next checkpoint does the same work.
  }
  post({ type: 'checkpointed' });
}

/** One row-cap batch in one write transaction: read under the lock, the main thread plans, then write and delete. */
async function cap(maxRows: number, limit: number): Promise<void> {
  try {
    db.exec('BEGIN IMMEDIATE');
    const boundary = st.capBoundary.get({ maxRows })?.[0] as number | undefined;
    if (boundary === undefined) {
      db.exec('COMMIT');
      post({ type: 'done', deleted: 0, capLeft: false, sessions: 0 });
      return;
    }
    const to = (st.capRangeEnd.get({ upTo: boundary, offset: limit - 1 })?.[0] as number | undefined) ?? boundary;
    const sessions = st.victimSessions.all({ to });
    const keys = JSON.stringify(sessions.map((row) => row[0]));
    post({ type: 'read', sessions, heads: st.headsOfKeys.all({ keys }), cursors: st.cursorsOnTargets.all({ keys }) });
    const writes = await answered();
    if (writes.type !== 'write') {
      db.exec('ROLLBACK');
      post({ type: 'rolledBack' });
      return;
    }
    for (const head of writes.heads) st[head.insert ? 'insertHead' : 'updateHead'].run(head);
    for (const entry of writes.journal) st.insertJournal.run(entry);
    const deleted = Number(st.deleteEventRange.run({ from: 0, to }).changes);
    db.exec('COMMIT');
    post({ type: 'done', deleted, capLeft: to < boundary, sessions: sessions.length });
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    // The driver's message names the failure (SQLITE_BUSY, a full disk), never a value.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    post({ type: 'failed', code: String(code), message: String(message) });
  }
}

// The main thread sends one job at a time; 'stop' ends the thread between statements.
port.on('message', (message: ToThread) => {
  if (message === 'stop') process.exit(0);
  else if (message.type === 'checkpoint') checkpoint();
  else if (message.type === 'cap') void cap(message.maxRows, message.limit);
  else if (answer !== undefined) {
    const resolve = answer;
    answer = undefined;
    resolve(message);
  }
});
