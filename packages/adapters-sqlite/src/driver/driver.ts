// The driver seam: the little the store needs of a SQLite driver, so it runs on better-sqlite3 or node:sqlite.
import type { SqliteStoreOptions } from '../storeOptions.js';

/** What a write ran; neither driver reads integers as bigint here, so `changes` is a number. */
export type RunResult = { readonly changes: number; readonly lastInsertRowid: number | bigint };

/** A prepared statement returning rows of type `Row`; a values object may hold more keys than it names. */
export interface DriverStatement<Row> {
  readonly source: string;
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
}

/** Rows as positional arrays: what the store's compiled statements read. */
export type RawStatement = DriverStatement<unknown[]>;

/**
 * `fn` in a transaction, as better-sqlite3's: called plainly (or `.deferred`) it runs in BEGIN,
 * `.immediate` in BEGIN IMMEDIATE; inside an open transaction it runs in a SAVEPOINT instead.
 * A throw rolls back (to the savepoint) and rethrows.
 */
export interface Transaction<A extends unknown[], R> {
  (...args: A): R;
  deferred(...args: A): R;
  immediate(...args: A): R;
}

export interface SqliteClient {
  readonly driver: NonNullable<SqliteStoreOptions['driver']>;
  /** What the worker threads require to open their own connection with the same driver. */
  readonly workerModule: string;
  readonly open: boolean;
  readonly inTransaction: boolean;
  /** Rows as objects keyed by column name. */
  prepare(sql: string): DriverStatement<Record<string, unknown>>;
  /** Rows as positional arrays. */
  prepareRaw(sql: string): RawStatement;
  exec(sql: string): void;
  /** Runs `PRAGMA <statement>`; returns the first column of the first row (undefined when none). */
  pragma(statement: string): unknown;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): Transaction<A, R>;
  close(): void;
}
