// The store `record` hands the facade: the restart scan is a no-op, so opening the facade from a
// hand-run command writes nothing but the append, and each append's outcome stays visible.
import type { AppendOutcome, AppendRequest, Notice, StateStore } from '@session-state/domain';

/** A store that skips the restart scan and remembers what its appends did. */
export interface AppendOnlyStore {
  /** The store to pass to `createSessionStateAwareness`. */
  readonly store: StateStore;
  /** The outcome types of every append so far, in order (`appended`, `duplicate`, `skipped`, `failed`). */
  readonly outcomes: readonly AppendOutcome['type'][];
}

/**
 * Wraps `inner` for a one-shot writer. The facade runs the restart scan when it opens, and the
 * scan writes `notified = material` into every cursor whose notice is frozen below newer changes;
 * a gateway does that to queue the notices it will deliver, but a command that exits at once
 * would deliver none, so here the scan reads and writes nothing. Every other call is `inner`'s.
 *
 * @example
 * const { store, outcomes } = appendOnlyStore(openSqliteStore({ path }));
 */
export function appendOnlyStore(inner: StateStore): AppendOnlyStore {
  const outcomes: AppendOutcome['type'][] = [];
  const store: StateStore = {
    append: async (batch: readonly AppendRequest[]) => {
      const results = await inner.append(batch);
      for (const result of results) outcomes.push(result.type);
      return results;
    },
    watch: (request) => inner.watch(request),
    readChanges: (sessionKey, since, limit) => inner.readChanges(sessionKey, since, limit),
    readHeads: (sessionKeys) => inner.readHeads(sessionKeys),
    listCursors: (filter) => inner.listCursors(filter),
    drain: (watcher, acks, now) => inner.drain(watcher, acks, now),
    readCursorJournal: (filter) => inner.readCursorJournal(filter),
    restartScan: (): Promise<readonly Notice[]> => Promise.resolve([]),
    // record queues no notice (it has no gateway to deliver it), so it reads none either.
    pendingNotices: (): Promise<readonly Notice[]> => Promise.resolve([]),
    resetWatcher: (watcher, now) => inner.resetWatcher(watcher, now),
    deleteSession: (sessionKey, now) => inner.deleteSession(sessionKey, now),
    prune: (request) => inner.prune(request),
    close: () => inner.close(),
  };
  const readSessionChanges = inner.readSessionChanges?.bind(inner);
  return { store: readSessionChanges === undefined ? store : { ...store, readSessionChanges }, outcomes };
}
