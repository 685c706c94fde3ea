// The overview of a SQL store from its statements' rows (overviewCounts, firstHeads and the
// first pending, then idle, cursors): the same shape in both dialects.
import type { CorruptRowSink, StoreOverview } from '@session-state/domain';

import { headRowOf } from './heads.js';
import { decodeStoredCursors } from './storedRow.js';

/** The overview of `counts` (the overviewCounts row; PostgreSQL's bigints come as strings), head rows and cursor rows. */
export function overviewOfRows(sink: CorruptRowSink, counts: readonly unknown[], heads: readonly (readonly unknown[])[], cursors: readonly (readonly unknown[])[]): StoreOverview {
  const [sessions, highestHead, prunedSessions, cursorCount, pendingPairs, pendingNotices] = counts.map(Number) as [number, number, number, number, number, number];
  return {
    counts: { sessions, cursors: cursorCount, pendingPairs, pendingNotices, highestHead, prunedSessions },
    heads: heads.map(headRowOf),
    cursors: decodeStoredCursors(sink, 'readOverview', cursors),
  };
}
