// Node's built-in node:sqlite behind the seam, its statements wrapped to behave as better-sqlite3's.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

import type { DriverStatement, SqliteClient, Transaction } from './driver.js';
import { requireDriver } from './driverPath.js';

type NodeSqlite = typeof import('node:sqlite');

// The features the store relies on; Node 22.16 and 24.0 brought them.
const NEEDED = 'StatementSync setReturnArrays and setAllowUnknownNamedParameters, DatabaseSync isTransaction (Node >= 22.16)';

const tooOld = (): Error => new Error(`openSqliteStore: node:sqlite of Node ${process.version} lacks ${NEEDED}; upgrade Node, or pass driver: 'better-sqlite3'`);

/** The module, or a clear error when this Node has none (or one too old for the store). */
export function loadNodeSqlite(): NodeSqlite {
  let sqlite: NodeSqlite;
  try {
    sqlite = requireDriver('node:sqlite') as NodeSqlite;
  } catch {
    throw new Error(`openSqliteStore: driver 'node:sqlite' is not available on Node ${process.version}; it needs ${NEEDED}, or pass driver: 'better-sqlite3'`);
  }
  const proto = sqlite.StatementSync.prototype as Partial<StatementSync>;
  if (typeof proto.setReturnArrays !== 'function' || typeof proto.setAllowUnknownNamedParameters !== 'function') throw tooOld();
  return sqlite;
}

function statementOf<Row>(native: StatementSync, arrays: boolean): DriverStatement<Row> {
  native.setReturnArrays(arrays);
  native.setAllowUnknownNamedParameters(true);
  return {
    source: native.sourceSQL,
    run: native.run.bind(native) as DriverStatement<Row>['run'],
    get: native.get.bind(native) as DriverStatement<Row>['get'],
    all: native.all.bind(native) as DriverStatement<Row>['all'],
  };
}

export function nodeSqliteClient(db: DatabaseSync): SqliteClient {
  if (typeof (db as Partial<DatabaseSync>).isTransaction !== 'boolean') throw tooOld();
  // The transaction statements, prepared once (an append runs two of them).
  const control = new Map<string, StatementSync>();
  const run = (sql: string): void => {
    let statement = control.get(sql);
    if (statement === undefined) control.set(sql, (statement = db.prepare(sql)));
    statement.run();
  };
  // As better-sqlite3's transaction functions: BEGIN … COMMIT, or a savepoint when nested; a
  // throw (a failed COMMIT too) rolls back what is still open.
  const wrap = <A extends unknown[], R>(fn: (...args: A) => R, begin: string) => (...args: A): R => {
    const nested = db.isTransaction;
    run(nested ? 'SAVEPOINT session_state' : begin);
    try {
      const result = fn(...args);
      run(nested ? 'RELEASE session_state' : 'COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) {
        if (nested) {
          run('ROLLBACK TO session_state');
          run('RELEASE session_state');
        } else run('ROLLBACK');
      }
      throw error;
    }
  };
  return {
    driver: 'node:sqlite',
    workerModule: 'node:sqlite',
    get open() {
      return db.isOpen;
    },
    get inTransaction() {
      return db.isTransaction;
    },
    prepare: (sql) => statementOf(db.prepare(sql), false),
    prepareRaw: (sql) => statementOf(db.prepare(sql), true),
    exec: (sql) => db.exec(sql),
    pragma: (statement) => statementOf<unknown[]>(db.prepare(`PRAGMA ${statement}`), true).get()?.[0],
    transaction<A extends unknown[], R>(fn: (...args: A) => R): Transaction<A, R> {
      const deferred = wrap(fn, 'BEGIN');
      return Object.assign(deferred, { deferred, immediate: wrap(fn, 'BEGIN IMMEDIATE') });
    },
    close() {
      control.clear();
      db.close();
    },
  };
}

/** True for a node:sqlite DatabaseSync (what a gateway may hand the store). */
export function isNodeSqliteHandle(handle: object): handle is DatabaseSync {
  const candidate = handle as Partial<DatabaseSync>;
  return typeof candidate.isTransaction === 'boolean' && typeof candidate.isOpen === 'boolean' && typeof candidate.prepare === 'function';
}
