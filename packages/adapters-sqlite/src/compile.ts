// Compiles a drizzle-built query (a builder, or a shared `sql` template) ONCE, at open, into a
// better-sqlite3 prepared statement called with named values (see adapters-sql-common's
// statement.ts): drizzle stays the single source of the SQL while a call costs what a raw
// prepared statement costs (drizzle's own prepared queries re-map placeholders on every call).
import type Database from 'better-sqlite3';
import type { SQL } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { bindValues, renderStatement, type Renderable } from '@session-state/adapters-sql-common';

const dialect = new SQLiteSyncDialect();

/** A compiled statement taking its parameters by name; reads return positional rows. */
export class Statement<Params extends object = Record<string, never>> {
  constructor(
    private readonly prepared: Database.Statement<unknown[]>,
    private readonly names: readonly string[],
  ) {}

  /** The SQL text (for EXPLAIN QUERY PLAN in the tests). */
  get source(): string {
    return this.prepared.source;
  }

  run(params: Params): Database.RunResult {
    return this.prepared.run(...bindValues(this.names, params));
  }

  get(params: Params): unknown[] | undefined {
    return this.prepared.get(...bindValues(this.names, params)) as unknown[] | undefined;
  }

  all(params: Params): unknown[][] {
    return this.prepared.all(...bindValues(this.names, params)) as unknown[][];
  }
}

/** Prepares `query` once; a statement that returns rows returns them as positional arrays. */
export function compile<Params extends object = Record<string, never>>(client: Database.Database, query: Renderable, label: string): Statement<Params> {
  const { sql, names } = renderStatement(dialect, query, label);
  const prepared = client.prepare<unknown[]>(sql);
  if (prepared.reader) prepared.raw(true);
  return new Statement<Params>(prepared, names);
}

/** Runs a query built per call (its values bound by drizzle), as positional rows. */
export function readRows(client: Database.Database, query: SQL): unknown[][] {
  const { sql, params } = dialect.sqlToQuery(query);
  return client.prepare<unknown[]>(sql).raw(true).all(...params) as unknown[][];
}
