// What the page shows at a glance: the watch graph (bounded, see graphBounds), the pending
// notices with their text (bounded), and the store-side counts. Reads heads and cursors only:
// the cursor journal is read per pair, when the page asks for one. Nothing here writes.
import { planHeldNotices, type StateStore } from '@session-state/domain';

import { watchGraph, type WatchGraph } from './graph';
import { shownPart } from './graphBounds';

// --- the shapes --------------------------------------------------------------------------------

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
export interface StoreCounts {
  /** Sessions with a head row (every key ever recorded, deleted ones included as tombstones). */
  readonly sessions: number;
  readonly cursors: number;
  /** Cursors with a notice pending (material above acked). */
  readonly pendingPairs: number;
  /** Notices the pending cursors hold (notified above acked); a restart scan queues the rest. */
  readonly pendingNotices: number;
  /** The highest state version of any session. */
  readonly highestHead: number;
  /** Sessions whose history retention (or a delete) has cut: prune watermark above 0. */
  readonly prunedSessions: number;
}

/** The overview the page renders and the event stream pushes. */
export interface Overview {
  /** At most GRAPH_SESSION_LIMIT sessions and GRAPH_EDGE_LIMIT cursors, pending pairs first. */
  readonly graph: WatchGraph;
  /** At most NOTICE_LIMIT of the held notices, by watcher then target. */
  readonly notices: readonly PendingNotice[];
  readonly counts: StoreCounts;
  /** True when the graph or the notices leave some of the store out. */
  readonly truncated: boolean;
}

/** The most held notices the overview lists. */
export const NOTICE_LIMIT = 200;

// --- reading it ----------------------------------------------------------------------------------

/**
 * Reads the overview. Each part is its own read (no shared snapshot), so a commit landing in
 * between shows up fully at the next refresh, which that commit triggers anyway.
 *
 * @example const { graph, notices } = await readOverview(store);
 */
export async function readOverview(store: StateStore): Promise<Overview> {
  const heads = await store.readHeads();
  // A synchronous store (SQLite) blocks the loop for each read: let waiting requests in between.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const cursors = await store.listCursors();
  await new Promise<void>((resolve) => setImmediate(resolve));
  const shown = shownPart(heads, cursors);
  const graph = watchGraph(heads, shown.cursors, shown.keys, cursors);
  // The held notices follow from the cursors just read (every store's pendingNotices is this
  // plan over its rows); only the listed ones get their text.
  const holding = cursors.filter((row) => row.notified > row.acked);
  const notices = planHeldNotices({ cursors: holding.slice(0, NOTICE_LIMIT) }).map(
    (notice): PendingNotice => ({ watcher: notice.watcher, target: notice.target, changesSince: notice.acked, notified: notice.notified, text: notice.text }),
  );
  let pendingPairs = 0;
  for (const row of cursors) if (row.material > row.acked) pendingPairs += 1;
  let highestHead = 0;
  let prunedSessions = 0;
  for (const row of heads) {
    highestHead = Math.max(highestHead, row.head);
    if (row.pruneWatermark > 0) prunedSessions += 1;
  }
  return {
    graph,
    notices,
    counts: { sessions: heads.length, cursors: cursors.length, pendingPairs, pendingNotices: holding.length, highestHead, prunedSessions },
    truncated: shown.cursors.length < cursors.length || notices.length < holding.length || heads.some((row) => !shown.keys.has(row.sessionKey)),
  };
}
