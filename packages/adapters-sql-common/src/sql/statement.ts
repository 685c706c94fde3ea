// Statements with named parameters: rendered once with placeholders, the names kept in bind order; each call's values laid out in it.
import type { SQL } from 'drizzle-orm';

import { orm } from './drizzle.js';

/** What renders a dialect's SQL: drizzle's SQLiteSyncDialect or PgDialect. */
interface SqlDialect {
  sqlToQuery(sql: SQL): { readonly sql: string; readonly params: readonly unknown[] };
}

/** A query builder (its own dialect renders it) or an `sql` template (the given dialect renders it). */
export type Renderable = SQL | { toSQL(): { readonly sql: string; readonly params: readonly unknown[] } };

/** The named placeholder `name`, bound from a call's values by name. */
export const p = (name: string) => orm.sql.placeholder(name);
/** A query and (a type only) the named values `P` its statement takes. */
export type Query<P extends object, Q extends Renderable = Renderable> = Q & { readonly '~params'?: P };
/** `query`, typed with the named values `P` its statement takes (an `sql` template stays one, so it can be embedded in another). */
export function q<P extends object = Record<string, never>>(query: SQL): Query<P, SQL>;
export function q<P extends object = Record<string, never>>(query: Renderable): Query<P>;
export function q(query: Renderable): Renderable {
  return query;
}

/** The placeholder a parameter binds (insert values arrive in a column Param whose encoder is the identity for every bound column). */
function placeholderName(param: unknown): string | undefined {
  if (orm.is(param, orm.Placeholder)) return param.name;
  if (orm.is(param, orm.Param) && orm.is(param.value, orm.Placeholder)) return param.value.name;
  return undefined;
}

/** Renders `query` once: its text and the placeholder each `$n` binds; every parameter must be a placeholder (a literal binds no name). */
export function renderStatement(dialect: SqlDialect, query: Renderable, label: string): { readonly sql: string; readonly names: readonly string[] } {
  const { sql, params } = orm.is(query, orm.SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  const names = params.map((param) => {
    const name = placeholderName(param);
    if (name === undefined) throw new Error(`${label}: every parameter must be a named placeholder, the query binds a literal: ${sql}`);
    return name;
  });
  return { sql, names };
}

/** The positional values of one call: each name's value from `params`, in the statement's order. */
export function bindValues(names: readonly string[], params: object): unknown[] {
  return names.map((name) => {
    const value = (params as Record<string, unknown>)[name];
    if (value === undefined) throw new Error(`no value for the parameter ${name}`);
    return value;
  });
}
