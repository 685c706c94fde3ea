// The store's statements as drizzle queries, typed with the values they take: rendered to SQL text
// ahead of time (render.ts), never built when a store opens.
import type { Renderable } from '@session-state/adapters-sql-common';

import { orm } from '../db/drizzle.js';

export const p = (name: string) => orm.sql.placeholder(name);

/** (A type only) the values a statement takes: an object of named values, or a tuple bound by position. */
export type Params<P extends object> = { readonly '~params'?: P };

export type Query<P extends object> = Renderable & Params<P>;
export const q = <P extends object = Record<string, never>>(query: Renderable): Query<P> => query;

/** A query bound by position: `bindOrder` must be the order drizzle renders its placeholders in (render.ts checks it). */
export type Positional<V extends readonly unknown[]> = Params<V> & { readonly query: Renderable; readonly bindOrder: readonly string[] };
export const positional = <V extends readonly unknown[]>(query: Renderable, bindOrder: readonly string[]): Positional<V> => ({ query, bindOrder });
