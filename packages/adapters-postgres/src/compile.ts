// Renders a drizzle-built query (a builder, or an `sql` template) once, at open, into a named
// statement with positional parameters ($1, $2, …) called with named values (see
// adapters-sql-common's statement.ts): drizzle stays the single source of the SQL, while a call
// costs what a raw node-postgres prepared statement costs (prepared once per connection, by name).
import { renderStatement, type Renderable } from '@session-state/adapters-sql-common';

import { pgCore } from './drizzle.js';

const { PgDialect } = pgCore;

/** The dialect that renders the store's `sql` templates. */
export const dialect = new PgDialect();

/** A statement built once at open: a name (prepared once per connection), its text and the placeholder each `$n` binds. */
export interface Statement<Params extends object = Record<string, never>> {
  readonly name: string;
  readonly text: string;
  readonly names: readonly string[];
  /** Never set: carries the named values' type. */
  readonly params?: Params;
}

/** Renders `query` as the statement `ss_<name>`. */
export function compile<Params extends object = Record<string, never>>(name: string, query: Renderable): Statement<Params> {
  const { sql, names } = renderStatement(dialect, query, `compile ${name}`);
  return { name: `ss_${name}`, text: sql, names };
}
