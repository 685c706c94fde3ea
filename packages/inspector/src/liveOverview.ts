// The overview kept current: re-read when the change source says the store may have changed
// (one read at a time, a change during a read queues one more, started only after a pause that
// grows with what the last read cost, so the server answers between reads of a large store), and
// pushed to every open event stream, serialised once, only when it differs from the last one.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { failureMessage, type StateStore } from '@session-state/domain';

import type { ChangeSource, ChangeSubscription } from './changes.js';
import { readOverview, type Overview } from './overview.js';

/** What an event stream receives: the overview and its version (1 for the first read, then +1 per change) within this server run. */
export interface OverviewUpdate {
  /** This server run's id: a restarted inspector numbers its versions from 1 again under a new one. */
  readonly run: string;
  readonly version: number;
  readonly overview: Overview;
  /** The last refresh failed with this message (the overview is the last good one). */
  readonly error?: string;
}

export type LiveOverview = Awaited<ReturnType<typeof startLiveOverview>>;

/** The pause before a queued re-read, as a multiple of what the last read took: the loop stays free most of the time. */
const PAUSE_PER_READ_COST = 4;
/** The longest pause between reads, in milliseconds. */
const MAX_PAUSE_MS = 5000;

/** An update and its JSON text, made once for every stream; `overviewText` is the overview's, so it is serialised only once. */
function frameOf(run: string, version: number, overview: Overview, overviewText: string, error?: string) {
  const errorText = error === undefined ? '' : `,"error":${JSON.stringify(error)}`;
  const data = `{"run":${JSON.stringify(run)},"version":${version},"overview":${overviewText}${errorText}}`;
  const update: OverviewUpdate = { run, version, overview, ...(error === undefined ? {} : { error }) };
  return { update, data };
}

export type OverviewFrame = ReturnType<typeof frameOf>;

/**
 * Reads the overview once, then keeps it current from `changes`. `current` gives the latest frame
 * (after the read under way, if any, has finished); `subscribe` calls `listener` with every new
 * frame until the returned function is called; `refresh` re-reads now (what the change source
 * triggers) and resolves once the reads queued have finished; `close` stops the change source, and
 * no update is pushed after it resolves.
 *
 * @example const live = await startLiveOverview(store, sqliteFileChanges(file));
 */
export async function startLiveOverview(store: StateStore, changes: ChangeSource) {
  const run = randomUUID();
  const listeners = new Set<(frame: OverviewFrame) => void>();
  const first = await readOverview(store);
  let latestText = JSON.stringify(first);
  let latest = frameOf(run, 1, first, latestText);
  let closed = false;
  let running: Promise<void> | undefined;
  let reading: Promise<void> | undefined;
  let again = false;
  let lastCostMs = 0;

  const readOnce = async (): Promise<void> => {
    const started = performance.now();
    let next: OverviewFrame;
    try {
      const overview = await readOverview(store);
      const text = JSON.stringify(overview);
      if (text === latestText && latest.update.error === undefined) return;
      latestText = text;
      next = frameOf(run, latest.update.version + 1, overview, text);
    } catch (error) {
      const message = failureMessage(error);
      if (latest.update.error === message) return;
      next = frameOf(run, latest.update.version + 1, latest.update.overview, latestText, message);
    } finally {
      lastCostMs = performance.now() - started;
    }
    if (closed) return;
    latest = next;
    for (const listener of listeners) listener(next);
  };

  // The pause before a queued re-read; `close` ends it early.
  const resting = new AbortController();
  const rest = (): Promise<void> => sleep(Math.min(MAX_PAUSE_MS, lastCostMs * PAUSE_PER_READ_COST), undefined, { signal: resting.signal }).catch(() => undefined);

  const refresh = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        reading = readOnce();
        await reading;
        reading = undefined;
        if (again && !closed) await rest();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
      reading = undefined;
    });
    return running;
  };

  const subscription: ChangeSubscription = await changes(() => {
    if (!closed) void refresh();
  });

  return {
    current: async (): Promise<OverviewFrame> => {
      if (reading !== undefined) await reading;
      return latest;
    },
    subscribe: (listener: (frame: OverviewFrame) => void): (() => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    refresh,
    close: async (): Promise<void> => {
      closed = true;
      listeners.clear();
      resting.abort();
      await subscription.close();
      if (running !== undefined) await running;
    },
  };
}
