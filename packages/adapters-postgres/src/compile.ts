// Renders a drizzle-built query once, at open, into a named statement with positional
// parameters ($1, $2, …): drizzle stays the single source of the SQL, while a call costs what a
// raw node-postgres prepared statement costs (prepared once per connection, by name).
import { Param, Placeholder, SQL, is } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

import type { Statement } from './transaction';

/** A query builder or prepared query. */
interface Renderable {
  toSQL(): { readonly sql: string; readonly params: readonly unknown[] };
}

const dialect = new PgDialect();

/**
 * The placeholder a parameter binds. Insert values arrive wrapped in a column Param whose
 * encoder is the identity for text and bigint columns; the one json column is bound as text the
 * caller already serialised, which is what the json encoder would produce.
 */
function placeholderName(param: unknown): string {
  if (is(param, Placeholder)) return param.name;
  if (is(param, Param) && is(param.value, Placeholder)) return param.value.name;
  return '<a literal>';
}

/**
 * Renders `query` (a builder, or an `sql` template for what the builder cannot say) as the
 * statement `ss_<name>`; its parameters must be exactly the placeholders in `names`, in that
 * order (checked here, so a reordered query fails at open, not by binding wrong columns).
 */
export function compile(name: string, query: Renderable | SQL, names: readonly string[]): Statement {
  const { sql, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  const actual = params.map(placeholderName);
  if (actual.length !== names.length || actual.some((n, i) => n !== names[i])) {
    throw new Error(`compile ${name}: expected parameters [${names.join(', ')}] but the query has [${actual.join(', ')}]: ${sql}`);
  }
  return { name: `ss_${name}`, text: sql };
}
