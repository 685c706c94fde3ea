// The statements every operation runs, prepared once at open from their SQL text, rendered ahead of
// time from the drizzle queries of sql/ (render.ts): opening a store and running them loads no drizzle.
import type { CursorFilter, CursorRow } from '@session-state/domain';

import type { RunResult, SqliteClient } from './driver/driver.js';
import type { statementQueries } from './sql/render.js';
import type { CursorParams } from './sql/storeQueries.js';
import rendered from './statements.generated.json' with { type: 'json' };

/** A prepared statement taking named values (an object with at least those keys) or, for a tuple `P`, positional ones; reads return positional rows. */
export interface Statement<P extends object = Record<string, never>> {
  /** The SQL text (for EXPLAIN QUERY PLAN in the tests). */
  readonly source: string;
  run(...values: Values<P>): RunResult;
  get(...values: Values<P>): unknown[] | undefined;
  all(...values: Values<P>): unknown[][];
}

type Values<P> = P extends readonly unknown[] ? P : [params: P];

type Queries = ReturnType<typeof statementQueries>;
/** The prepared statements, by label, each taking the values its query was typed with. */
export type Statements = { readonly [K in keyof Queries]: Queries[K] extends { readonly '~params'?: infer P extends object } ? Statement<P> : never };

// A statement missing from the rendered file fails the type check (its test fails on any other difference).
const texts: Record<keyof Queries, string> = rendered;

export function prepareStatements(client: SqliteClient): Statements {
  return Object.fromEntries(Object.entries(texts).map(([label, sql]) => [label, client.prepareRaw(sql)])) as unknown as Statements;
}

/** Which of a filtered read's statements (listCursors…, journal…) `filter` takes. */
export function filterStatement({ watcher, target }: CursorFilter): 'All' | 'OfWatcher' | 'OfTarget' | 'OfPair' {
  if (watcher === undefined) return target === undefined ? 'All' : 'OfTarget';
  return target === undefined ? 'OfWatcher' : 'OfPair';
}

/** A cursor row's values for upsertCursor (no lease is null, the class 1 or 0). */
export const cursorParams = (row: CursorRow): CursorParams => ({ ...row, takenUntil: row.takenUntil ?? null, ambient: row.ambient === true ? 1 : 0 });

/** Writes a moved cursor row (one just read under the write lock) with updateCursor. */
export function moveCursor(st: Statements, row: CursorRow): void {
  st.updateCursor.run(row.acked, row.notified, row.material, row.touchedAt, row.takenUntil ?? null, row.watcher, row.target);
}
