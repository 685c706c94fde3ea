// How many pending cursors the restart scan's next chunk reads, so that a page (one write
// transaction, commit included) ends within its wall-time budget: the chunk size follows the
// measured cost per row and per commit. Pure arithmetic over the times it is told; recover.ts
// reads the clock.

export interface ScanPacerOptions {
  /** Wall time a page may hold the event loop, its commit included (ms). */
  readonly budgetMs: number;
  /** Rows of the first chunk of the scan, before anything is measured; also the per-row guess. */
  readonly firstRows: number;
  /** Fewest rows a chunk reads; a page always reads one chunk, so the scan always moves on. */
  readonly minRows: number;
  /** Most rows a chunk reads (one `LIMIT`). */
  readonly maxRows: number;
}

export interface ScanPacer {
  /**
   * Rows the next chunk of the page should read, `elapsedMs` into it; 0 when the page should
   * commit now (what is left of the budget would not hold a `minRows` chunk and the commit).
   * The first chunk of a page (elapsedMs 0) is never 0.
   */
  nextChunk(elapsedMs: number): number;
  /** A chunk of `rows` rows took `ms` (read, plan and write). */
  chunkTook(rows: number, ms: number): void;
  /** A page's commit took `ms`. */
  commitTook(ms: number): void;
}

/**
 * Estimates follow a cheaper measurement at once and a dearer one only by a quarter: one slow
 * statement or a garbage collection inside a chunk (or the OS descheduling the process) shrinks
 * the following pages a little, not down to `minRows` each, which would multiply commits.
 */
const follow = (estimate: number, measured: number): number => (measured <= estimate ? measured : estimate + (measured - estimate) / 4);

export function createScanPacer({ budgetMs, firstRows, minRows, maxRows }: ScanPacerOptions): ScanPacer {
  let msPerRow: number | undefined;
  let commitMs = 0;
  return {
    nextChunk(elapsedMs) {
      if (msPerRow === undefined) return elapsedMs === 0 ? firstRows : 0;
      const left = budgetMs - elapsedMs - commitMs;
      const rows = Math.floor(left / Math.max(msPerRow, Number.MIN_VALUE));
      if (rows >= minRows) return Math.min(rows, maxRows);
      return elapsedMs === 0 ? minRows : 0;
    },
    chunkTook(rows, ms) {
      if (rows === 0) return;
      const measured = ms / rows;
      msPerRow = msPerRow === undefined ? measured : follow(msPerRow, measured);
    },
    commitTook(ms) {
      commitMs = follow(commitMs === 0 ? ms : commitMs, ms);
    },
  };
}
