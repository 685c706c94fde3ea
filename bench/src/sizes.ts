// Workload sizes: the full run's, smaller counts for `--quick` (same data shapes, fewer measured
// ops), and the PostgreSQL column's, smaller where every operation pays round trips.

/** In workload order: 1–3 (`chunk`: ops per side before switching), 4 the log, 5/5m cap and excess, 6 cursors, 7, 8, 10 fan-out, 11 lists, 13 notices. */
export const FULL = {
  sessions: 1000, records: 20_000, warmup: 1000, chunk: 2000, watchersPerTarget: 10, inFlight: 100, logRows: 50_000, logSessions: 100,
  tailPolls: 20_000, pageReads: 5000, tailEvents: 10, pruneCap: 50_000, pruneExcess: 50_000, pruneAtScaleCap: 50_000, pruneAtScaleExcess: 1_000_000,
  cursors: 100_000, pending: 10_000, scans: 15, memoryRecords: 100_000, burst: 100_000, fanOutWatchers: [1, 10, 100, 1000], fanOutTargets: 10,
  fanOutRecords: 10_000, fanOutMoves: 500_000, listSessions: 100_000, listFew: 10_000, listAll: 60, notices: 500, noticeWarmup: 50,
};

export type Sizes = typeof FULL;

export const QUICK: Sizes = {
  ...FULL, records: 4000, warmup: 500, chunk: 1000, tailPolls: 4000, pageReads: 600, scans: 6, memoryRecords: 20_000, burst: 50_000,
  fanOutRecords: 2000, fanOutMoves: 50_000, listSessions: 20_000, listFew: 2000, listAll: 20, notices: 100, noticeWarmup: 20,
};

/** The PostgreSQL column's sizes (pg1–pg6 mirror 1–6; pg7's notices are 13's). */
export function pgSizes(sqlite: Sizes, quick: boolean) {
  const { sessions, watchersPerTarget, inFlight, logRows, logSessions, tailEvents, pruneAtScaleCap, pruneAtScaleExcess, notices, noticeWarmup } = sqlite;
  const own = quick
    ? { records: 500, warmup: 100, tailPolls: 1000, pageReads: 200, pruneCap: 2000, pruneExcess: 2000, cursors: 10_000, pending: 1000, scans: 3 }
    : { records: 3000, warmup: 200, tailPolls: 6000, pageReads: 1500, pruneCap: 20_000, pruneExcess: 20_000, cursors: 50_000, pending: 5000, scans: 5 };
  return { sessions, watchersPerTarget, inFlight, logRows, logSessions, tailEvents, pruneAtScaleCap, pruneAtScaleExcess, notices, noticeWarmup, chunk: 20, ...own };
}

export type PgSizes = ReturnType<typeof pgSizes>;
