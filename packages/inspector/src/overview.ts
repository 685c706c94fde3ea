// What the page shows at a glance, read from the store in one go: the watch graph, the pending
// notices with their text, and the store-side counts. Reads only: nothing here writes.
import { planHeldNotices, type StateStore } from '@session-state/domain';

import { watchGraph, type WatchGraph } from './graph.js';

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
  readonly journalEntries: number;
  /** The highest state version of any session. */
  readonly highestHead: number;
  /** Sessions whose history retention (or a delete) has cut: prune watermark above 0. */
  readonly prunedSessions: number;
}

/** The overview the page renders and the event stream pushes. */
export interface Overview {
  readonly graph: WatchGraph;
  readonly notices: readonly PendingNotice[];
  readonly counts: StoreCounts;
}

// --- reading it ----------------------------------------------------------------------------------

/**
 * Reads the overview. Each part is its own read (no shared snapshot), so a commit landing in
 * between shows up fully at the next refresh, which that commit triggers anyway.
 *
 * @example const { graph, notices } = await readOverview(store);
 */
export async function readOverview(store: StateStore): Promise<Overview> {
  const heads = await store.readHeads();
  const cursors = await store.listCursors();
  // The held notices follow from the cursors just read (every store's pendingNotices is this
  // plan over its rows), so the same table is not read a second time on every refresh.
  const held = planHeldNotices({ cursors });
  const journal = await store.readCursorJournal();
  const graph = watchGraph(heads, cursors);
  const notices = held.map(
    (notice): PendingNotice => ({ watcher: notice.watcher, target: notice.target, changesSince: notice.acked, notified: notice.notified, text: notice.text }),
  );
  return {
    graph,
    notices,
    counts: {
      sessions: heads.length,
      cursors: cursors.length,
      pendingPairs: graph.edges.filter((edge) => edge.pending).length,
      pendingNotices: notices.length,
      journalEntries: journal.length,
      highestHead: heads.reduce((highest, row) => Math.max(highest, row.head), 0),
      prunedSessions: heads.filter((row) => row.pruneWatermark > 0).length,
    },
  };
}
