// Renders every statement the store runs to SQL text, ahead of time: `npm run statements:render:sqlite`
// writes it to statements.generated.json, which opening a store prepares (statements.ts) without
// loading drizzle; a test fails when the committed file is not what the queries render.
import { renderStatement, sharedStatements, type Renderable } from '@session-state/adapters-sql-common';

import { sqliteCore } from '../db/drizzle.js';
import { tables } from '../schema.js';
import { headMarkQueries, ownQueries, positionalQueries, type Positional } from './storeQueries.js';

const dialect = new sqliteCore.SQLiteSyncDialect();

/** Every statement, by label: the shared ones, SQLite's own, the append's. */
export function statementQueries() {
  return { ...sharedStatements(tables), ...ownQueries(), ...positionalQueries(), ...headMarkQueries() };
}

/** `sql` with its i-th `?` written `@names[i]`; the statements hold no `?` in a literal, which the count check would catch. */
function withNamedParameters({ sql, names }: { readonly sql: string; readonly names: readonly string[] }, label: string): string {
  const parts = sql.split('?');
  if (parts.length !== names.length + 1) throw new Error(`${label}: ${names.length} placeholders but ${parts.length - 1} "?" in: ${sql}`);
  return parts.reduce((named, part, i) => `${named}@${names[i - 1] as string}${part}`);
}

/** The text of a statement bound by position, its `?` left as they are once `order` is the order they render in, so no value shifts column. */
export function renderPositional(query: Renderable, label: string, order: readonly string[]): string {
  const { sql, names } = renderStatement(dialect, query, label);
  if (names.length !== order.length || names.some((name, i) => name !== order[i])) throw new Error(`${label}: the placeholders render as (${names.join(', ')}), not the order the caller binds (${order.join(', ')})`);
  return sql;
}

/** Each statement's SQL text by label: `@name` parameters, or `?` for one bound by position. */
function renderStatements(): Record<string, string> {
  return Object.fromEntries(
    Object.entries<Renderable | Positional<readonly unknown[]>>(statementQueries()).map(([label, query]) => [
      label,
      'bindOrder' in query ? renderPositional(query.query, label, query.bindOrder) : withNamedParameters(renderStatement(dialect, query, label), label),
    ]),
  );
}

/** The text of statements.generated.json. */
export const renderedStatementsText = (): string => `${JSON.stringify(renderStatements(), null, 2)}\n`;
