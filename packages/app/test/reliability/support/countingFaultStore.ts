// A StateStore wrapper that counts every storage call and can fail the Nth one, once
// (transient) or from then on (persistent); it also tells when the facade's background work
// has gone quiet, so a check never races a background prune.
import { storeError, type StateStore } from '@session-state/domain';

import { STORE_OPERATIONS } from '../../../src/storeMethods';

/** Every port method but `close`, which the batteries never fail. */
export type StoreMethod = Exclude<keyof StateStore, 'close'>;

/** Transient: only the Nth call fails. Persistent: the Nth and every later call fail. */
export type FaultMode = 'transient' | 'persistent';

/** How an injected failure surfaces: a synchronous throw or a rejected promise. */
export type FaultStyle = 'throw' | 'reject';

/** One storage call seen since the wrapper was last armed. */
export interface SeenCall {
  readonly method: StoreMethod;
  /** 1-based position among the calls since arming. */
  readonly n: number;
  readonly failed: boolean;
  /** For `prune`: the batch size the facade asked for (it may size batches by time). */
  readonly batchSize?: number;
}

export interface CountingFaultStore {
  /** The store to hand to the facade; it forwards to the current inner store. */
  readonly store: StateStore;
  /** Points the wrapper at another store (after a restart reopened the file). */
  setInner(inner: StateStore): void;
  /** Starts counting afresh; the `failAt`th call from now fails as `mode` says. */
  arm(failAt: number, mode: FaultMode, style?: FaultStyle): void;
  /** Stops failing (the store is healthy again); counting continues. */
  heal(): void;
  /** Calls since the last `arm` (or since creation). */
  readonly calls: readonly SeenCall[];
  /** The calls that were failed since the last `arm`. */
  readonly failed: readonly SeenCall[];
  /** Resolves once no call is in flight and none started for a few event-loop turns. */
  settle(): Promise<void>;
}

export const INJECTED_FAILURE = 'injected storage failure';

/** Every required method but close (the fault store keeps its own close). */
const METHODS: readonly StoreMethod[] = STORE_OPERATIONS;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Wraps `initial`; unarmed it only counts. */
export function countingFaultStore(initial: StateStore): CountingFaultStore {
  let inner = initial;
  let calls: SeenCall[] = [];
  let failAt = Number.POSITIVE_INFINITY;
  let mode: FaultMode = 'transient';
  let style: FaultStyle = 'reject';
  let healed = true;
  let inFlight = 0;

  const shouldFail = (n: number): boolean => !healed && (mode === 'transient' ? n === failAt : n >= failAt);

  const wrap = (method: StoreMethod) =>
    (...args: unknown[]): Promise<unknown> => {
      const n = calls.length + 1;
      const failed = shouldFail(n);
      const batchSize = method === 'prune' ? (args[0] as { batchSize?: number } | undefined)?.batchSize : undefined;
      calls.push({ method, n, failed, ...(batchSize !== undefined ? { batchSize } : {}) });
      if (failed) {
        const error = storeError(method, new Error(`${INJECTED_FAILURE} (${method}, call ${n})`));
        if (style === 'throw') throw error;
        return Promise.reject(error);
      }
      inFlight += 1;
      const done = (): void => {
        inFlight -= 1;
      };
      let result: Promise<unknown>;
      try {
        result = (inner[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        done();
        throw error;
      }
      return Promise.resolve(result).finally(done);
    };

  const store = Object.fromEntries(METHODS.map((method) => [method, wrap(method)])) as unknown as Omit<StateStore, 'close'>;

  return {
    store: { ...store, close: () => inner.close() } as StateStore,
    setInner(next) {
      inner = next;
    },
    arm(at, nextMode, nextStyle = 'reject') {
      calls = [];
      failAt = at;
      mode = nextMode;
      style = nextStyle;
      healed = false;
    },
    heal() {
      healed = true;
    },
    get calls() {
      return calls;
    },
    get failed() {
      return calls.filter((call) => call.failed);
    },
    async settle() {
      let quietTurns = 0;
      let seen = calls.length;
      while (quietTurns < 4) {
        await nextTurn();
        if (inFlight === 0 && calls.length === seen) quietTurns += 1;
        else {
          quietTurns = 0;
          seen = calls.length;
        }
      }
    },
  };
}
