// Sequences and the reconciliation arguments: positive sequences assigned at append, and the
// non-negative `changesSince` and bounded `limit` a reader passes.
import type * as t from 'io-ts';

import { refinement } from '../input/validation.js';

/** A sequence number (0 means "nothing yet": a state version of a session with no events). */
export type Sequence = t.Branded<number, { readonly Sequence: unique symbol }>;

export function isSequence(value: unknown): value is Sequence {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A sequence or `changesSince`: a non-negative safe integer. */
export const Sequence = refinement<Sequence, number>('a non-negative safe integer', isSequence);

/** Treats a trusted number (a stored row, a counter) as a sequence. */
export const asSequence = (n: number): Sequence => n as Sequence;

export const ZERO: Sequence = asSequence(0);

export const maxSequence = (a: Sequence, b: Sequence): Sequence => (a >= b ? a : b);

export const MAX_PAGE_LIMIT = 200;

export type PageLimit = t.Branded<number, { readonly PageLimit: unique symbol }>;

export const PageLimit = refinement<PageLimit, number>(`an integer from 1 to ${MAX_PAGE_LIMIT}`, (u): u is PageLimit => typeof u === 'number' && Number.isSafeInteger(u) && u >= 1 && u <= MAX_PAGE_LIMIT);
