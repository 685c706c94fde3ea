// Holds the store's operations while a prune worker batch holds the file's write lock: an
// operation on the store's own connection that met that lock would wait for it inside SQLite's
// busy handler, blocking the event loop (and the worker's batch waits for the event loop to plan
// its writes, so it would wait for busy_timeout and fail). Held operations run in call order once
// the batch settles, in a turn of the event loop of their own (a setImmediate): a batch settles
// when a worker's message arrives, in the loop's poll phase, and an operation resumed right there
// would share that turn with the one the group commit schedules next, in the same loop's check
// phase: two append transactions between two timers (bench 8 saw 23–29 ms turns of two
// 10–13 ms transactions). With no batch running an operation runs at once, as before.

export interface WriteGate {
  /** Runs `operation` now, or after the batch in progress settles. */
  run<T>(operation: () => T | Promise<T>): T | Promise<T>;
  /** Holds every operation until `batch` settles (fulfilled or rejected); returns it. */
  hold<T>(batch: Promise<T>): Promise<T>;
  /** Resolves when no batch holds the gate. */
  idle(): Promise<void>;
}

/** A turn of the event loop of its own (the check phase's setImmediate). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createWriteGate(): WriteGate {
  let held: Promise<void> | undefined;
  return {
    run(operation) {
      if (held === undefined) return operation();
      return held.then(operation);
    },
    hold(batch) {
      const settled = batch.then(nextTurn, nextTurn);
      const previous = held;
      const next = previous === undefined ? settled : previous.then(() => settled);
      held = next;
      void next.then(() => {
        if (held === next) held = undefined;
      });
      return batch;
    },
    async idle() {
      while (held !== undefined) await held;
    },
  };
}
