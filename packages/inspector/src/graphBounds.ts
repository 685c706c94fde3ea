// Which part of a large store the overview draws: at most a few hundred sessions and a bounded
// number of cursors, pending pairs first, so one refresh costs the same to send and to draw
// whether the store holds three sessions or a hundred thousand.
import { fromWatermarks, type CursorRow, type HeadRow, type SessionKey } from '@session-state/domain';

/** The most sessions the overview's graph holds. */
export const GRAPH_SESSION_LIMIT = 500;
/** The most cursors (edges) the overview's graph holds. */
export const GRAPH_EDGE_LIMIT = 2000;

/**
 * Picks the keys and cursors to draw of `heads` and `cursors` within `sessionLimit` keys and
 * `edgeLimit` cursors: everything when it fits, else each cursor taken brings both its ends,
 * pending cursors first; head-only sessions fill the rest.
 */
export function shownPart(heads: readonly HeadRow[], cursors: readonly CursorRow[], sessionLimit = GRAPH_SESSION_LIMIT, edgeLimit = GRAPH_EDGE_LIMIT) {
  const keys = new Set<SessionKey>();
  const taken = new Set<CursorRow>();
  const take = (row: CursorRow): void => {
    if (taken.size >= edgeLimit) return;
    const room = sessionLimit - keys.size - (keys.has(row.watcher) ? 0 : 1) - (keys.has(row.target) || row.target === row.watcher ? 0 : 1);
    if (room < 0) return;
    keys.add(row.watcher);
    keys.add(row.target);
    taken.add(row);
  };
  for (const row of cursors) if (fromWatermarks(row).status === 'pending') take(row);
  for (const row of cursors) if (!taken.has(row)) take(row);
  for (const row of heads) {
    if (keys.size >= sessionLimit) break;
    keys.add(row.sessionKey);
  }
  // The cursors between shown sessions, in the store's order (watcher, then target).
  return { keys, cursors: cursors.filter((row) => taken.has(row)) };
}
