// The overview kept current: re-read when the change source says the store may have changed
// (one read at a time, a change during a read queues one more), and pushed to every open event
// stream only when it differs from the last one pushed.
import { failureMessage, type StateStore } from '@session-state/domain';

import type { ChangeSource, ChangeSubscription } from './changes.js';
import { readOverview, type Overview } from './overview.js';

/** What an event stream receives: the overview and its version (1 for the first read, then +1 per change). */
export interface OverviewUpdate {
  readonly version: number;
  readonly overview: Overview;
  /** The last refresh failed with this message (the overview is the last good one). */
  readonly error?: string;
}

export interface LiveOverview {
  /** The latest update (after the first read has finished). */
  current(): Promise<OverviewUpdate>;
  /** Calls `listener` with every new update until the returned function is called. */
  subscribe(listener: (update: OverviewUpdate) => void): () => void;
  /** Re-reads now (what the change source triggers); resolves once the read has finished. */
  refresh(): Promise<void>;
  /** Stops the change source; no update is pushed after it resolves. */
  close(): Promise<void>;
}

/**
 * Reads the overview once, then keeps it current from `changes`.
 *
 * @example const live = await startLiveOverview(store, sqliteFileChanges(file));
 */
export async function startLiveOverview(store: StateStore, changes: ChangeSource): Promise<LiveOverview> {
  const listeners = new Set<(update: OverviewUpdate) => void>();
  let latest: OverviewUpdate = { version: 1, overview: await readOverview(store) };
  let latestText = JSON.stringify(latest.overview);
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;

  const readOnce = async (): Promise<void> => {
    let next: OverviewUpdate;
    try {
      const overview = await readOverview(store);
      const text = JSON.stringify(overview);
      if (text === latestText && latest.error === undefined) return;
      latestText = text;
      next = { version: latest.version + 1, overview };
    } catch (error) {
      const message = failureMessage(error);
      if (latest.error === message) return;
      next = { version: latest.version + 1, overview: latest.overview, error: message };
    }
    if (closed) return;
    latest = next;
    for (const listener of listeners) listener(next);
  };

  const refresh = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await readOnce();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const subscription: ChangeSubscription = await changes(() => {
    if (!closed) void refresh();
  });

  return {
    current: async () => {
      if (running !== undefined) await running;
      return latest;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    close: async () => {
      closed = true;
      listeners.clear();
      await subscription.close();
      if (running !== undefined) await running;
    },
  };
}
