// Sizes of the PostgreSQL column: smaller than SQLite's where every operation pays network round
// trips (~100–150 µs each here), so the full column stays near two minutes and --quick near 20 s.
import type { Sizes } from '../sizes';

export interface PgSizes {
  /** pg1–pg3: sessions recorded to, measured records, unmeasured warm-up records, ops per chunk. */
  readonly sessions: number;
  readonly records: number;
  readonly warmup: number;
  readonly chunk: number;
  /** pg2: watchers on each target. */
  readonly watchersPerTarget: number;
  /** pg3: record calls in flight at once. */
  readonly inFlight: number;
  /** pg4: log rows, sessions, measured tail polls and full pages, events a tail poll returns. */
  readonly logRows: number;
  readonly logSessions: number;
  readonly tailPolls: number;
  readonly pageReads: number;
  readonly tailEvents: number;
  /** pg5: the row cap and the rows above it to prune (SQLite's workload 5 has 50,000 of each). */
  readonly pruneCap: number;
  readonly pruneExcess: number;
  /** pg6: cursors, lagging cursors, timed scans per side. */
  readonly cursors: number;
  readonly lagging: number;
  readonly scans: number;
  /** pg7: measured cross-gateway notices per side, and unmeasured ones first. */
  readonly notices: number;
  readonly noticeWarmup: number;
}

/** The full column, derived from the SQLite sizes where PostgreSQL can afford them. */
export function pgSizes(sqlite: Sizes, quick: boolean): PgSizes {
  const full: PgSizes = {
    sessions: sqlite.sessions,
    records: 3000,
    warmup: 200,
    // Small chunks: an op takes a millisecond or more and a shared machine's load shifts within
    // seconds, so the sides alternate every few dozen milliseconds.
    chunk: 20,
    watchersPerTarget: sqlite.watchersPerTarget,
    inFlight: sqlite.inFlight,
    logRows: sqlite.logRows,
    logSessions: sqlite.logSessions,
    tailPolls: 6000,
    pageReads: 1500,
    tailEvents: sqlite.tailEvents,
    pruneCap: 20_000,
    pruneExcess: 20_000,
    cursors: 50_000,
    lagging: 5000,
    scans: 5,
    // A notice takes a few milliseconds end to end, plus an untimed drain.
    notices: 500,
    noticeWarmup: 50,
  };
  if (!quick) return full;
  return {
    ...full,
    records: 500,
    warmup: 100,
    tailPolls: 1000,
    pageReads: 200,
    pruneCap: 2000,
    pruneExcess: 2000,
    cursors: 10_000,
    lagging: 1000,
    scans: 3,
    notices: 100,
    noticeWarmup: 20,
  };
}
