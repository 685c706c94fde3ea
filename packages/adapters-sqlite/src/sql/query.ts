// The store's statements as drizzle queries, typed with the values they take (p, q and Query are
// adapters-sql-common's): rendered to SQL text ahead of time (render.ts), never built when a store opens.
import type { Renderable } from '@session-state/adapters-sql-common';

export { p, q } from '@session-state/adapters-sql-common';

/** A query bound by position: `bindOrder` must be the order drizzle renders its placeholders in (render.ts checks it). */
export type Positional<V extends readonly unknown[]> = { readonly '~params'?: V; readonly query: Renderable; readonly bindOrder: readonly string[] };
export const positional = <V extends readonly unknown[]>(query: Renderable, bindOrder: readonly string[]): Positional<V> => ({ query, bindOrder });
