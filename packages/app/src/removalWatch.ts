// Removal watches: which queued notices were removed (or replaced) while a cross-process re-read
// ran beside the operation lane. Such a re-read may have read a cursor before a drain, a reset, a
// delete, an expiry or a spawn edge committed in this process, so its answer for a pair whose
// entry left the queue meanwhile is not trusted (crossProcessSync re-reads it in the lane).

/** One watch, from `start()` until `stop()`. */
export interface RemovalWatch {
  /** Whether the pair's queue entry was removed or replaced since the watch started. */
  touched(watcher: string, target: string): boolean;
  /** Ends the watch; it records nothing more. */
  stop(): void;
}

export interface RemovalWatches {
  /** Called by the queue for every entry it removes or replaces. */
  removed(watcher: string, target: string): void;
  /** Starts a watch; `removed` calls after this one are what it reports. */
  start(): RemovalWatch;
}

/** One string per (watcher, target): session keys never hold whitespace, so a space separates. */
export const pairKey = (watcher: string, target: string): string => `${watcher} ${target}`;

export function createRemovalWatches(): RemovalWatches {
  // The pairs each running watch has seen removed; usually none runs, and at most a couple do.
  const running = new Set<Set<string>>();
  return {
    removed(watcher, target) {
      if (running.size === 0) return;
      const key = pairKey(watcher, target);
      for (const pairs of running) pairs.add(key);
    },
    start() {
      const pairs = new Set<string>();
      running.add(pairs);
      return {
        touched: (watcher, target) => pairs.has(pairKey(watcher, target)),
        stop: () => {
          running.delete(pairs);
        },
      };
    },
  };
}
