// Compiles a drizzle-built query once, at open, into a driver statement taking named values
// (each `?` drizzle renders becomes `@name`): drizzle is the one source of the SQL, never run per call.
import type { SQL } from 'drizzle-orm';
import { renderStatement, type Renderable } from '@session-state/adapters-sql-common';

import type { RunResult, SqliteClient } from '../driver/driver.js';
import { orm, sqliteCore } from './drizzle.js';

const dialect = new sqliteCore.SQLiteSyncDialect();

/** The named value `name` of a compiled statement. */
export const p = (name: string) => orm.sql.placeholder(name);

/** A compiled statement taking named values (an object with at least those keys) or, for a tuple `P`, positional ones; reads return positional rows. */
export interface Statement<P extends object = Record<string, never>> {
  /** The SQL text (for EXPLAIN QUERY PLAN in the tests). */
  readonly source: string;
  run(...values: Values<P>): RunResult;
  get(...values: Values<P>): unknown[] | undefined;
  all(...values: Values<P>): unknown[][];
}

type Values<P> = P extends readonly unknown[] ? P : [params: P];

/** `sql` with its i-th `?` written `@names[i]`; the statements hold no `?` in a literal, which the count check would catch. */
function withNamedParameters({ sql, names }: { readonly sql: string; readonly names: readonly string[] }, label: string): string {
  const parts = sql.split('?');
  if (parts.length !== names.length + 1) throw new Error(`${label}: ${names.length} placeholders but ${parts.length - 1} "?" in: ${sql}`);
  return parts.reduce((named, part, i) => `${named}@${names[i - 1] as string}${part}`);
}

/** A query to compile, and (a type only) the named values it takes. */
export type Query<P extends object> = Renderable & { readonly '~params'?: P };
/** `query`, typed with the named values `P` its statement takes. */
export const q = <P extends object = Record<string, never>>(query: Renderable): Query<P> => query;
type Compiled<T> = { readonly [K in keyof T]: T[K] extends Query<infer P> ? Statement<P> : never };

/** Prepares each query once, labelled with its key; a statement that returns rows returns them as positional arrays. */
export function compileAll<T extends Record<string, Query<object>>>(client: SqliteClient, queries: T): Compiled<T> {
  const prepare = (label: string, query: Renderable) => client.prepareRaw(withNamedParameters(renderStatement(dialect, query, label), label));
  return Object.fromEntries(Object.entries(queries).map(([label, query]) => [label, prepare(label, query)])) as unknown as Compiled<T>;
}

/**
 * Prepares `query` with parameters bound by position, for the append's hot statements; `order`
 * must be the order drizzle renders the placeholders in, checked here so no value shifts column.
 */
export function compilePositional<V extends readonly unknown[]>(client: SqliteClient, query: Renderable, label: string, order: readonly string[]): Statement<V> {
  const { sql, names } = renderStatement(dialect, query, label);
  if (names.length !== order.length || names.some((name, i) => name !== order[i])) {
    throw new Error(`${label}: the placeholders render as (${names.join(', ')}), not the order the caller binds (${order.join(', ')})`);
  }
  return client.prepareRaw(sql) as unknown as Statement<V>;
}

/** Runs a query built per call (its values bound by drizzle), as positional rows. */
export function readRows(client: SqliteClient, query: { getSQL(): SQL }): unknown[][] {
  const { sql, params } = dialect.sqlToQuery(query.getSQL());
  return client.prepareRaw(sql).all(...params);
}

/** Runs a write built per call (its values bound by drizzle). */
export function runWrite(client: SqliteClient, query: { getSQL(): SQL }): RunResult {
  const { sql, params } = dialect.sqlToQuery(query.getSQL());
  return client.prepareRaw(sql).run(...params);
}
