// Holds the store's operations while a prune worker batch holds the file's write lock: an
// operation on the store's own connection that met that lock would wait for it inside SQLite's
// busy handler, blocking the event loop (and the worker's batch waits for the event loop to plan
// its writes, so it would wait for busy_timeout and fail). Held operations run in call order once
// the batch settles; with no batch running an operation runs at once, as before.

export interface WriteGate {
  /** Runs `operation` now, or after the batch in progress settles. */
  run<T>(operation: () => T | Promise<T>): T | Promise<T>;
  /** Holds every operation until `batch` settles (fulfilled or rejected); returns it. */
  hold<T>(batch: Promise<T>): Promise<T>;
  /** Resolves when no batch holds the gate. */
  idle(): Promise<void>;
}

export function createWriteGate(): WriteGate {
  let held: Promise<void> | undefined;
  return {
    run(operation) {
      if (held === undefined) return operation();
      return held.then(operation);
    },
    hold(batch) {
      const settled = batch.then(
        () => undefined,
        () => undefined,
      );
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
