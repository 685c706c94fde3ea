// A StateStore wrapper for failure tests: arms a method to throw (or reject) on its next calls,
// and records how each method was called (e.g. the batch sizes of append).
import type { StateStore } from '@session-state/domain';

type Method = Exclude<keyof StateStore, 'close'>;

export interface Faults {
  /** The next `times` calls of `method` fail: `throw` synchronously or `reject` the promise. */
  failNext(method: Method, times?: number, how?: 'throw' | 'reject'): void;
  /** Argument lists of every call, per method. */
  readonly calls: { readonly [M in Method]?: unknown[][] };
}

export const STORE_FAILURE = 'disk I/O error';

export function withFaults(inner: StateStore): { store: StateStore; faults: Faults } {
  const armed = new Map<Method, { times: number; how: 'throw' | 'reject' }>();
  const calls: { [M in Method]?: unknown[][] } = {};

  const wrap = <M extends Method>(method: M): StateStore[M] =>
    ((...args: unknown[]) => {
      const seen: unknown[][] = calls[method] ?? [];
      calls[method] = seen;
      seen.push(args);
      const fault = armed.get(method);
      if (fault !== undefined && fault.times > 0) {
        fault.times -= 1;
        if (fault.how === 'throw') throw new Error(STORE_FAILURE);
        return Promise.reject(new Error(STORE_FAILURE));
      }
      return (inner[method] as (...a: unknown[]) => unknown)(...args);
    }) as StateStore[M];

  const store: StateStore = {
    append: wrap('append'),
    watch: wrap('watch'),
    readChanges: wrap('readChanges'),
    readHeads: wrap('readHeads'),
    listCursors: wrap('listCursors'),
    drain: wrap('drain'),
    readCursorJournal: wrap('readCursorJournal'),
    restartScan: wrap('restartScan'),
    pendingNotices: wrap('pendingNotices'),
    resetWatcher: wrap('resetWatcher'),
    deleteSession: wrap('deleteSession'),
    prune: wrap('prune'),
    close: () => inner.close(),
  };
  return {
    store,
    faults: {
      failNext(method, times = 1, how = 'reject') {
        armed.set(method, { times, how });
      },
      calls,
    },
  };
}

/**
 * Fixture options whose store is wrapped by `withFaults`; `faults()` returns the wrapper of the
 * store in use (a restart wraps the reopened store afresh).
 */
export function faultyStoreOption(): { wrap: (store: StateStore) => StateStore; faults: () => Faults } {
  let current: Faults | undefined;
  return {
    wrap: (store) => {
      const wrapped = withFaults(store);
      current = wrapped.faults;
      return wrapped.store;
    },
    faults: () => {
      if (current === undefined) throw new Error('no store has been wrapped yet');
      return current;
    },
  };
}
