// Waits for an event that some callback reports (a facade's `wake`, a LISTEN connection's
// notification): `next(key)` resolves with the process.hrtime.bigint() at which `signal(key)` is
// next called, so a workload can time an operation to the moment its effect is heard.

export interface SignalWaiter {
  /** Resolves with the hrtime (ns) of the next `signal(key)`; rejects after `timeoutMs` without one. */
  next(key: string, timeoutMs: number): Promise<bigint>;
  /** Reports `key` now; with nobody waiting for it, it is counted as stray. */
  signal(key: string): void;
  /** Signals that arrived with nobody waiting for their key. */
  strays(): number;
}

export function createSignalWaiter(what: string): SignalWaiter {
  const waiting = new Map<string, { resolve: (at: bigint) => void; timer: NodeJS.Timeout }>();
  let strays = 0;
  return {
    next(key, timeoutMs) {
      if (waiting.has(key)) return Promise.reject(new Error(`already waiting for a ${what} for ${key}`));
      return new Promise<bigint>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(key);
          reject(new Error(`no ${what} for ${key} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(key, { resolve, timer });
      });
    },
    signal(key) {
      // Taken first: the time of the event, not of the bookkeeping after it.
      const at = process.hrtime.bigint();
      const waiter = waiting.get(key);
      if (waiter === undefined) {
        strays += 1;
        return;
      }
      waiting.delete(key);
      clearTimeout(waiter.timer);
      waiter.resolve(at);
    },
    strays: () => strays,
  };
}
