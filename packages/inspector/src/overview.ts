// What the page shows at a glance: the watch graph, the pending notices with their text, and the
// store-side counts. Reads the store's overview (the counts and a bounded part of heads and
// cursors) and the heads of the keys it shows: the cursor journal is read per pair, when the page
// asks for one. Nothing here writes. The graph and the notices are bounded (at most a few hundred
// sessions and a bounded number of cursors, pending pairs first), so one refresh costs the same to
// send and to draw whether the store holds three sessions or a hundred thousand.
import { fromWatermarks, isOverviewSource, noticeText, overviewOf, planScan, type CursorRow, type HeadRow, type SessionKey, type StateStore, type StoreCounts } from '@session-state/domain';

import { watchGraph, type WatchGraph } from './graph.js';

/** The most sessions the overview's graph holds. */
export const GRAPH_SESSION_LIMIT = 500;
/** The most cursors (edges) the overview's graph holds. */
export const GRAPH_EDGE_LIMIT = 2000;

/**
 * Picks the keys and cursors to draw of `heads` and `cursors` within `sessionLimit` keys and
 * `edgeLimit` cursors: everything when it fits, else each cursor taken brings both its ends,
 * pending cursors first; head-only sessions fill the rest.
 */
function shownPart(heads: readonly HeadRow[], cursors: readonly CursorRow[], sessionLimit = GRAPH_SESSION_LIMIT, edgeLimit = GRAPH_EDGE_LIMIT) {
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

/** A notice a pending cursor holds, as the owning gateway would queue it. */
export interface PendingNotice {
  readonly watcher: string;
  readonly target: string;
  /** The cursor's acked: what the text says to pass as `changesSince`. */
  readonly changesSince: number;
  /** The frozen watermark the notice covers. */
  readonly notified: number;
  /** The notice line, byte for byte as the gateway puts it in the prompt. */
  readonly text: string;
}

/** Counts read from the store (the facade's own counters live in the gateway's process, see `/metrics`). */
export type { StoreCounts };

/** The overview the page renders and the event stream pushes. */
export interface Overview {
  /** At most GRAPH_SESSION_LIMIT sessions and GRAPH_EDGE_LIMIT cursors, pending pairs first. */
  readonly graph: WatchGraph;
  /** At most NOTICE_LIMIT of the held notices, by watcher then target, among the first GRAPH_EDGE_LIMIT pending pairs. */
  readonly notices: readonly PendingNotice[];
  readonly counts: StoreCounts;
  /** True when the graph or the notices leave some of the store out. */
  readonly truncated: boolean;
}

/** The most held notices the overview lists. */
export const NOTICE_LIMIT = 200;

/**
 * Reads the overview. Each part is its own read (no shared snapshot), so a commit landing in
 * between shows up fully at the next refresh, which that commit triggers anyway.
 *
 * @example const { graph, notices } = await readOverview(store);
 */
export async function readOverview(store: StateStore): Promise<Overview> {
  // The store's counts and a bounded part of its rows; a store that is no OverviewSource is read whole.
  const limits = { heads: GRAPH_SESSION_LIMIT, cursors: GRAPH_EDGE_LIMIT };
  const read = isOverviewSource(store) ? await store.readOverview(limits) : overviewOf(await store.readHeads(), await store.listCursors(), limits);
  const { counts } = read;
  // A synchronous store (SQLite) blocks the loop for each read: let waiting requests in between.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const shown = shownPart(read.heads, read.cursors);
  // The ends of the cursors shown that lie beyond the first heads: their heads, by key.
  const listed = new Set<string>(read.heads.map((row) => row.sessionKey));
  const beyond = [...shown.keys].filter((key) => !listed.has(key));
  const heads = beyond.length === 0 ? read.heads : [...read.heads, ...(await store.readHeads(beyond))];
  const graph = watchGraph(heads, shown.cursors, shown.keys, read.cursors);
  // The held notices follow from the cursors just read (every store's scanPending is this
  // plan over its rows); pending cursors come first, so they are the first held ones by pair.
  const holding = read.cursors.filter((row) => row.material > row.acked && row.notified > row.acked);
  const notices = planScan({ cursors: holding.slice(0, NOTICE_LIMIT) }).notices.map(
    (notice): PendingNotice => ({ watcher: notice.watcher, target: notice.target, changesSince: notice.acked, notified: notice.notified, text: noticeText(notice.target, notice.acked) }),
  );
  const headsShown = heads.filter((row) => shown.keys.has(row.sessionKey)).length;
  const truncated = shown.cursors.length < counts.cursors || notices.length < counts.pendingNotices || headsShown < counts.sessions;
  return { graph, notices, counts, truncated };
}
