// Workload sizes: the figures for the full run, and smaller counts for `--quick`
// (same data shapes, fewer measured ops) so it finishes in under a minute.

export interface Sizes {
  /** Workloads 1–3: sessions recorded to, measured records, unmeasured warm-up records. */
  readonly sessions: number;
  readonly records: number;
  readonly warmup: number;
  /** Ops per side before the runner switches side. */
  readonly chunk: number;
  /** Workload 2: watchers on each target. */
  readonly watchersPerTarget: number;
  /** Workload 3: record calls in flight at once. */
  readonly inFlight: number;
  /** Workload 4: log rows, sessions, measured tail polls and full pages. */
  readonly logRows: number;
  readonly logSessions: number;
  readonly tailPolls: number;
  readonly pageReads: number;
  readonly tailEvents: number;
  /** Workload 5: the row cap and the rows above it to prune. */
  readonly pruneCap: number;
  readonly pruneExcess: number;
  /** Workload 5m (full run only): the row cap and the rows beyond it, at scale. */
  readonly pruneAtScaleCap: number;
  readonly pruneAtScaleExcess: number;
  /** Workload 6: cursors, lagging cursors, timed scans per side. */
  readonly cursors: number;
  readonly lagging: number;
  readonly scans: number;
  /** Workload 7 (memory store): measured records / polls. */
  readonly memoryRecords: number;
  /** Workload 8: record calls issued in one tick without awaiting. */
  readonly burst: number;
  /** Workload 9: the watcher counts per target, the targets, measured records at most, and the cursor moves per side at most (records = moves / watchers, at least 200). */
  readonly fanOutWatchers: readonly number[];
  readonly fanOutTargets: number;
  readonly fanOutRecords: number;
  readonly fanOutMoves: number;
  /** Workload 10: sessions with a head, measured lists of 10 keys, measured lists of every key. */
  readonly listSessions: number;
  readonly listFew: number;
  readonly listAll: number;
}

export const FULL: Sizes = {
  sessions: 1000,
  records: 20_000,
  warmup: 1000,
  chunk: 2000,
  watchersPerTarget: 10,
  inFlight: 100,
  logRows: 50_000,
  logSessions: 100,
  tailPolls: 20_000,
  pageReads: 5000,
  tailEvents: 10,
  pruneCap: 50_000,
  pruneExcess: 50_000,
  pruneAtScaleCap: 50_000,
  pruneAtScaleExcess: 1_000_000,
  cursors: 100_000,
  lagging: 10_000,
  scans: 15,
  memoryRecords: 100_000,
  burst: 100_000,
  fanOutWatchers: [1, 10, 100, 1000],
  fanOutTargets: 10,
  fanOutRecords: 10_000,
  fanOutMoves: 500_000,
  listSessions: 100_000,
  listFew: 10_000,
  listAll: 60,
};

export const QUICK: Sizes = {
  ...FULL,
  records: 4000,
  warmup: 500,
  chunk: 1000,
  tailPolls: 4000,
  pageReads: 600,
  scans: 6,
  memoryRecords: 20_000,
  // Half the burst: workload 8 took 5 s of a quick run on a machine whose quick run passed a minute.
  burst: 50_000,
  fanOutRecords: 2000,
  fanOutMoves: 50_000,
  // --quick stays under a minute with the PostgreSQL column: seeding 100,000 sessions alone took
  // most of workload 11's 10 s; the full run keeps the issue's size.
  listSessions: 20_000,
  listFew: 2000,
  listAll: 20,
};
