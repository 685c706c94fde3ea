// Compiles a drizzle-built query into a better-sqlite3 prepared statement with positional
// parameters, so drizzle stays the single source of the SQL while a call costs what a raw
// prepared statement costs (drizzle's own prepared queries re-map placeholders on every call).
import type Database from 'better-sqlite3';
import { Param, Placeholder, is } from 'drizzle-orm';

/** Anything drizzle can render: a query builder or a prepared query. */
interface Renderable {
  toSQL(): { readonly sql: string; readonly params: readonly unknown[] };
}

/**
 * The placeholder a parameter binds. Insert values arrive wrapped in a column Param; its encoder
 * is the identity for every column of this schema (plain text and integer columns, JSON kept as
 * text), so binding the value directly is what drizzle would do.
 */
function placeholderName(param: unknown): string {
  if (is(param, Placeholder)) return param.name;
  if (is(param, Param) && is(param.value, Placeholder)) return param.value.name;
  return '<a literal>';
}

/**
 * Prepares `query` once; its parameters must be exactly the placeholders named in `names`, in
 * that order (checked here, at open, so a reordered query fails loudly instead of binding
 * values to the wrong columns). `raw` makes reads return positional arrays.
 */
export function compile<Args extends unknown[]>(
  client: Database.Database,
  query: Renderable,
  names: readonly string[],
  options: { readonly raw?: boolean } = {},
): Database.Statement<Args> {
  const { sql, params } = query.toSQL();
  const actual = params.map(placeholderName);
  if (actual.length !== names.length || actual.some((name, i) => name !== names[i])) {
    throw new Error(`compile: expected parameters [${names.join(', ')}] but the query has [${actual.join(', ')}]: ${sql}`);
  }
  const statement = client.prepare<Args>(sql);
  return options.raw === true ? statement.raw(true) : statement;
}
