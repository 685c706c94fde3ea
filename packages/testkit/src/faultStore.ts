// The one fault-injecting StateStore: it wraps a store, records every call (method, position,
// arguments) and fails calls on demand, either the next calls of one method (`failNext`) or the
// Nth call from now once or from then on (`arm`). It also tells when the facade's background
// work has gone quiet, so a check never races a background prune.
import { storeError, STORE_OPERATIONS, type StateStore, type StoreOperation } from '@session-state/domain';

// The wrapped methods are the port's operations: every required method but `close` (never failed).
/** Transient: only the Nth call fails. Persistent: the Nth and every later call fail. */
export type FaultMode = 'transient' | 'persistent';

/** How an injected failure surfaces: a synchronous throw or a rejected promise. */
export type FaultStyle = 'throw' | 'reject';

/** The message every injected failure carries (so a test can find it in a log). */
export const INJECTED_FAILURE = 'injected storage failure';

/** One storage call the wrapper saw. */
export interface SeenCall {
  readonly method: StoreOperation;
  /** 1-based position among the calls since the last `arm` (or since creation). */
  readonly n: number;
  readonly failed: boolean;
  readonly args: readonly unknown[];
  /** For `prune`: the batch size the facade asked for (it may size batches by time). */
  readonly batchSize?: number;
}

export interface FaultStore {
  /** The store to hand to the code under test; it forwards to the current inner store. */
  readonly store: StateStore;
  /** Points the wrapper at another store (after a restart reopened the durable state). */
  setInner(inner: StateStore): void;
  /**
   * The next `times` calls of `method` fail with a plain Error (what a store that does not tag
   * its errors raises), thrown or rejected as `style` says.
   */
  failNext(method: StoreOperation, times?: number, style?: FaultStyle): void;
  /**
   * Starts counting afresh; the `failAt`th call from now fails, as `mode` says, with a StoreError
   * naming the method (what the adapters raise).
   */
  arm(failAt: number, mode: FaultMode, style?: FaultStyle): void;
  /** Stops failing armed calls (the store is healthy again); counting continues. */
  heal(): void;
  /** Calls since the last `arm` (or since creation). */
  readonly calls: readonly SeenCall[];
  /** The calls that were failed since the last `arm`. */
  readonly failed: readonly SeenCall[];
  /** The argument lists of every call of `method` since creation, oldest first. */
  argsOf(method: StoreOperation): readonly (readonly unknown[])[];
  /** How many times `method` was called since creation (failed calls included). */
  countOf(method: StoreOperation): number;
  /** Resolves once no call is in flight and none started for a few event-loop turns. */
  settle(): Promise<void>;
}

/** Wraps `initial`; until told to fail it only records. */
export function faultStore(initial: StateStore): FaultStore {
  let inner = initial;
  let calls: SeenCall[] = [];
  const all: SeenCall[] = [];
  let failAt = Number.POSITIVE_INFINITY;
  let mode: FaultMode = 'transient';
  let armedStyle: FaultStyle = 'reject';
  let healed = true;
  const next = new Map<StoreOperation, { times: number; style: FaultStyle }>();
  let inFlight = 0;

  const armedFailure = (n: number): boolean => !healed && (mode === 'transient' ? n === failAt : n >= failAt);

  /** The injected failure of this call, if any, and how it surfaces. */
  function failureOf(method: StoreOperation, n: number): { error: unknown; style: FaultStyle } | undefined {
    const once = next.get(method);
    if (once !== undefined && once.times > 0) {
      once.times -= 1;
      return { error: new Error(`${INJECTED_FAILURE} (${method})`), style: once.style };
    }
    if (armedFailure(n)) return { error: storeError(method, new Error(`${INJECTED_FAILURE} (${method}, call ${n})`)), style: armedStyle };
    return undefined;
  }

  const wrap =
    (method: StoreOperation) =>
    (...args: unknown[]): Promise<unknown> => {
      const n = calls.length + 1;
      const failure = failureOf(method, n);
      const batchSize = method === 'prune' ? (args[0] as { batchSize?: number } | undefined)?.batchSize : undefined;
      const call: SeenCall = { method, n, failed: failure !== undefined, args, ...(batchSize !== undefined ? { batchSize } : {}) };
      calls.push(call);
      all.push(call);
      if (failure !== undefined) {
        if (failure.style === 'throw') throw failure.error;
        return Promise.reject(failure.error);
      }
      inFlight += 1;
      const done = (): void => void (inFlight -= 1);
      try {
        return Promise.resolve((inner[method] as (...a: unknown[]) => Promise<unknown>)(...args)).finally(done);
      } catch (error) {
        done();
        throw error;
      }
    };

  const methods = Object.fromEntries(STORE_OPERATIONS.map((method) => [method, wrap(method)])) as unknown as Omit<StateStore, 'close'>;

  return {
    store: { ...methods, close: () => inner.close() } as StateStore,
    setInner(replacement) {
      inner = replacement;
    },
    failNext(method, times = 1, style = 'reject') {
      next.set(method, { times, style });
    },
    arm(at, nextMode, nextStyle = 'reject') {
      calls = [];
      failAt = at;
      mode = nextMode;
      armedStyle = nextStyle;
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
    argsOf(method) {
      return all.filter((call) => call.method === method).map((call) => call.args);
    },
    countOf(method) {
      return all.filter((call) => call.method === method).length;
    },
    async settle() {
      let quietTurns = 0;
      let seen = calls.length;
      while (quietTurns < 4) {
        await new Promise((resolve) => setImmediate(resolve));
        if (inFlight === 0 && calls.length === seen) quietTurns += 1;
        else {
          quietTurns = 0;
          seen = calls.length;
        }
      }
    },
  };
}

/**
 * A `wrap` option for a facade fixture whose store is wrapped by `faultStore`; `faults()` is the
 * wrapper of the store in use (a restart wraps the reopened store afresh).
 */
export function faultStoreOption(): { wrap: (store: StateStore) => StateStore; faults: () => FaultStore } {
  let current: FaultStore | undefined;
  return {
    wrap: (store) => {
      current = faultStore(store);
      return current.store;
    },
    faults: () => {
      if (current === undefined) throw new Error('no store has been wrapped yet');
      return current;
    },
  };
}
