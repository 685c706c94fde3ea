// Long in-memory work in slices: the restart scan of a million cursors (collect the pending ones,
// order them by pair, plan and commit them) runs a slice at a time, letting the event loop run
// whenever a turn has worked for SLICE_MS, so no single turn blocks it for long.

/** A turn works this long (ms) before it lets the event loop run. */
export const SLICE_MS = 4;

/** Items handled between two looks at the time (each a few microseconds' work at most). */
const CHECK_EVERY = 256;

/** Sorted runs of this many items start the merge sort (each sorts in well under a millisecond). */
const FIRST_RUN = 1024;

/** The time budget of the running turn. */
export interface TurnBudget {
  /** True when this turn has used its SLICE_MS. */
  spent(): boolean;
  /** Lets the event loop run, and starts a fresh turn. */
  yieldTurn(): Promise<void>;
}

/** A budget starting now. */
export function turnBudget(): TurnBudget {
  let started = performance.now();
  return {
    spent: () => performance.now() - started >= SLICE_MS,
    async yieldTurn() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = performance.now();
    },
  };
}

/** Calls `each` on `items` in order (a Map's live iterator works too), CHECK_EVERY at a time, yielding when the turn is spent. */
export async function forEachInSlices<T>(items: Iterable<T>, each: (item: T) => void, budget: TurnBudget): Promise<void> {
  let since = 0;
  for (const item of items) {
    each(item);
    since += 1;
    if (since === CHECK_EVERY) {
      since = 0;
      if (budget.spent()) await budget.yieldTurn();
    }
  }
}

/** `items` sorted by `compare` (stable), as a bottom-up merge sort whose turns each stay within the budget. */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number, budget: TurnBudget): Promise<T[]> {
  let from: T[] = [];
  for (let start = 0; start < items.length; start += FIRST_RUN) {
    for (const item of items.slice(start, start + FIRST_RUN).sort(compare)) from.push(item);
    if (budget.spent()) await budget.yieldTurn();
  }
  let into: T[] = new Array<T>(from.length);
  for (let width = FIRST_RUN; width < from.length; width *= 2) {
    let out = 0;
    let since = 0;
    for (let left = 0; left < from.length; left += 2 * width) {
      const mid = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let i = left;
      let j = mid;
      while (i < mid || j < end) {
        // Ties take the left run's item first: the sort stays stable.
        if (j >= end || (i < mid && compare(from[i] as T, from[j] as T) <= 0)) into[out++] = from[i++] as T;
        else into[out++] = from[j++] as T;
        since += 1;
        if (since === CHECK_EVERY) {
          since = 0;
          if (budget.spent()) await budget.yieldTurn();
        }
      }
    }
    [from, into] = [into, from];
  }
  return from;
}
