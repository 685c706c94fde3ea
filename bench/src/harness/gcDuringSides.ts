// Garbage collections during a paired run, attributed to the side whose chunk was running: the
// count behind a p99 that a few GC pauses decide (bench 10a, where the WAL checkpoints take just
// under 1% of the records, so p99 is about the sixth slowest of the others).
import { performance, PerformanceObserver } from 'node:perf_hooks';

/** What one side saw: collections that started while its chunks ran, and their pauses in total. */
export interface SideGc {
  readonly collections: number;
  readonly pauseMs: number;
}

export interface GcDuringSides {
  /** Wraps a side's op: at each chunk's first measured op it notes that `side` runs from now on. */
  mark<A extends unknown[], R>(side: string, isChunkStart: (i: number) => boolean, op: (i: number, ...rest: A) => R): (i: number, ...rest: A) => R;
  /** Stops observing; the collections per side (a side that saw none is absent). */
  stop(): Promise<Record<string, SideGc>>;
}

/** Starts observing `gc` performance entries now. */
export function gcDuringSides(): GcDuringSides {
  const windows: { readonly at: number; readonly side: string }[] = [];
  const entries: { readonly at: number; readonly ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push({ at: e.startTime, ms: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    mark(side, isChunkStart, op) {
      return (i, ...rest) => {
        if (isChunkStart(i)) windows.push({ at: performance.now(), side });
        return op(i, ...rest);
      };
    },
    async stop() {
      // The observer delivers entries asynchronously: let it flush before counting.
      await new Promise((resolve) => setImmediate(resolve));
      observer.disconnect();
      const out: Record<string, { collections: number; pauseMs: number }> = {};
      for (const entry of entries) {
        let side: string | undefined;
        for (const w of windows) if (w.at <= entry.at) side = w.side;
        if (side === undefined) continue;
        const seen = (out[side] ??= { collections: 0, pauseMs: 0 });
        seen.collections += 1;
        seen.pauseMs += entry.ms;
      }
      return out;
    },
  };
}
