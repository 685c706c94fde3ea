// The better-sqlite3 driver behind the seam (driver.ts), loaded only when chosen: it is an
// optional peer dependency, so a gateway on node:sqlite installs no native module.
import type BetterSqlite3 from 'better-sqlite3';

import type { DriverStatement, RawStatement, SqliteClient } from './driver.js';
import { requireDriver } from './driverPath.js';

type Database = BetterSqlite3.Database;

/** The module, or a clear error naming what to install or choose instead. */
export function loadBetterSqlite3(): typeof BetterSqlite3 {
  try {
    return requireDriver('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error("openSqliteStore: better-sqlite3 is not installed: npm install better-sqlite3, or pass driver: 'node:sqlite'");
  }
}

/** A better-sqlite3 connection as the store's client; its statements are better-sqlite3's own, in raw mode. */
export function betterSqlite3Client(db: Database): SqliteClient {
  return {
    driver: 'better-sqlite3',
    workerModule: requireDriver.resolve('better-sqlite3'),
    get open() {
      return db.open;
    },
    get inTransaction() {
      return db.inTransaction;
    },
    prepare: (sql) => db.prepare(sql) as unknown as DriverStatement<Record<string, unknown>>,
    prepareRaw(sql) {
      const statement = db.prepare(sql);
      return (statement.reader ? statement.raw(true) : statement) as unknown as RawStatement;
    },
    exec: (sql) => void db.exec(sql),
    pragma: (statement) => db.pragma(statement, { simple: true }),
    transaction: (fn) => db.transaction(fn),
    close: () => void db.close(),
  };
}

/** True for a better-sqlite3 Database (what a gateway may hand the store). */
export function isBetterSqlite3Handle(handle: object): handle is Database {
  const candidate = handle as Partial<Database>;
  return typeof candidate.pragma === 'function' && typeof candidate.transaction === 'function' && typeof candidate.inTransaction === 'boolean';
}
