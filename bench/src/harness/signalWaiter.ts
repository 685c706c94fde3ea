// Waits for an event a callback reports (a facade's `wake`, a LISTEN notification): `next(key)`
// resolves with the hrtime at which `signal(key)` is next called.

/** `next(key, timeoutMs)`: the hrtime (ns) of the next `signal(key)`, rejected after `timeoutMs` without one; `strays()`: signals that came with nobody waiting for their key. */
export function createSignalWaiter(what: string) {
  const waiting = new Map<string, { resolve: (at: bigint) => void; timer: NodeJS.Timeout }>();
  let strays = 0;
  return {
    next: (key: string, timeoutMs: number) =>
      new Promise<bigint>((resolve, reject) => {
        if (waiting.has(key)) throw new Error(`already waiting for a ${what} for ${key}`);
        const timer = setTimeout(() => {
          waiting.delete(key);
          reject(new Error(`no ${what} for ${key} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(key, { resolve, timer });
      }),
    signal(key: string): void {
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
