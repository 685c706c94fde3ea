// Reads removed (watcher, target) pairs back in a deterministic order.
import type { CursorPair, SessionKey } from '@session-state/domain';

/** Orders pairs (or anything naming a watcher and a target, such as notices) by watcher, then target. */
export function comparePairs(a: { readonly watcher: string; readonly target: string }, b: { readonly watcher: string; readonly target: string }): number {
  if (a.watcher !== b.watcher) return a.watcher < b.watcher ? -1 : 1;
  if (a.target !== b.target) return a.target < b.target ? -1 : 1;
  return 0;
}

/** Rows [watcher, target] returned by a `DELETE … RETURNING watcher, target`, as sorted CursorPairs. */
export function toSortedPairs(rows: readonly (readonly unknown[])[]): CursorPair[] {
  return rows.map((row) => ({ watcher: row[0] as SessionKey, target: row[1] as SessionKey })).sort(comparePairs);
}
