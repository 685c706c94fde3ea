// What every workload receives and returns: the sizes (the full run's, smaller counts for `--quick`,
// same data shapes and fewer measured ops, and the PostgreSQL column's, smaller where every operation
// pays round trips), the run's temp files and progress; and the result rows' helpers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { SideStats } from './measure.js';

/** In workload order: 1–3 (`chunk`: ops per side before switching), 4 the log, 5/5m cap and excess, 6 cursors, 7, 8, 10 fan-out, 11 lists, 13 notices. */
export const FULL = {
  sessions: 1000, records: 20_000, warmup: 1000, chunk: 2000, watchersPerTarget: 10, inFlight: 100, logRows: 50_000, logSessions: 100,
  tailPolls: 20_000, pageReads: 5000, tailEvents: 10, pruneCap: 50_000, pruneExcess: 50_000, pruneAtScaleCap: 50_000, pruneAtScaleExcess: 1_000_000,
  cursors: 100_000, pending: 10_000, scans: 15, memoryRecords: 100_000, burst: 100_000, fanOutWatchers: [1, 10, 100, 1000], fanOutTargets: 10,
  fanOutRecords: 10_000, fanOutMoves: 500_000, listSessions: 100_000, listFew: 10_000, listAll: 60, notices: 500, noticeWarmup: 50,
};

type Sizes = typeof FULL;

export const QUICK: Sizes = {
  ...FULL, records: 4000, warmup: 500, chunk: 1000, tailPolls: 4000, pageReads: 600, scans: 6, memoryRecords: 20_000, burst: 50_000,
  fanOutRecords: 2000, fanOutMoves: 50_000, listSessions: 20_000, listFew: 2000, listAll: 20, notices: 100, noticeWarmup: 20,
};

/** The PostgreSQL column's sizes: SQLite's (pg1–pg6 mirror 1–6; pg7's notices are 13's), fewer where every operation pays round trips, alternating every 20 ops. */
export function pgSizes(sqlite: Sizes, quick: boolean) {
  const own = quick
    ? { records: 500, warmup: 100, tailPolls: 1000, pageReads: 200, pruneCap: 2000, pruneExcess: 2000, cursors: 10_000, pending: 1000, scans: 3 }
    : { records: 3000, warmup: 200, tailPolls: 6000, pageReads: 1500, pruneCap: 20_000, pruneExcess: 20_000, cursors: 50_000, pending: 5000, scans: 5 };
  return { ...sqlite, chunk: 20, ...own };
}

export type PgSizes = ReturnType<typeof pgSizes>;

/** One side's row: `op` says what one measured op is; `maxBlockMs` the longest event-loop block seen. */
export interface SideResult extends SideStats {
  readonly side: 'library' | 'raw' | 'library node:sqlite' | 'raw node:sqlite';
  readonly op: string;
  readonly maxBlockMs?: number;
}

export type Check = { readonly target: string; readonly measured: string; readonly met: boolean };

export interface WorkloadResult {
  readonly id: string;
  readonly title: string;
  readonly sides: readonly SideResult[];
  readonly checks: readonly Check[];
  readonly notes?: readonly string[];
  /** False when one library op is not one raw op (a burst), so latency ratios mean nothing. */
  readonly latencyComparable?: boolean;
}

/** `large`: also the sizes that take minutes (6L); `tempDb`: a path for a new database file in the run's temp directory. */
export interface BenchContext {
  readonly quick: boolean;
  readonly large: boolean;
  readonly sizes: Sizes;
  readonly progress: Progress;
  tempDb(name: string): string;
}

export function createTempDir(): { tempDb: (name: string) => string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-bench-'));
  let n = 0;
  return { tempDb: (name) => join(dir, `${String(++n).padStart(2, '0')}-${name}.db`), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export type Progress = ReturnType<typeof createProgress>;

/** Progress on stderr, one line rewritten in place on a TTY, a line per step otherwise: `update` shows `label` with `done` of `total` (a percentage on a TTY, throttled); `line` writes a line that stays. */
export function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let lastLabel = '';
  let lastPaint = 0;
  let dirty = false;
  return {
    update(label: string, done: number, total: number): void {
      const at = Date.now();
      if (!tty) {
        if (label !== lastLabel) stream.write(`… ${label}\n`);
      } else if (label !== lastLabel || done >= total || at - lastPaint >= 100) {
        stream.write(`\r\x1b[2K… ${label} ${total > 0 ? Math.floor((100 * done) / total) : 0}% (${done}/${total})`);
        lastPaint = at;
        dirty = true;
      }
      lastLabel = label;
    },
    line(text: string): void {
      if (tty && dirty) stream.write('\r\x1b[2K');
      dirty = false;
      stream.write(`${text}\n`);
    },
  };
}

export const times = (x: number): string => `${x.toFixed(2)}×`;

/** A library-against-raw latency result from runPaired's [library, raw] stats, with [library node:sqlite, raw node:sqlite] after them when given; with a `limit`, the checks "library ≤ `limit`× raw at p50 and p99" for each pair. */
export function latencyResult(id: string, title: string, ops: { readonly library: string; readonly raw: string }, stats: readonly SideStats[], limit?: number): WorkloadResult {
  const result = { id, title, sides: [] as SideResult[], checks: [] as Check[] };
  for (const [k, driver] of (['', ' node:sqlite'] as const).entries()) {
    const [lib, base] = [stats[2 * k], stats[2 * k + 1]];
    if (lib === undefined || base === undefined) continue;
    result.sides.push({ side: `library${driver}`, op: ops.library, ...lib }, { side: `raw${driver}`, op: ops.raw, ...base });
    if (limit === undefined) continue;
    for (const p of ['p50', 'p99'] as const) {
      const r = lib[`${p}Us`] / base[`${p}Us`];
      result.checks.push({ target: `${driver === '' ? '' : 'node:sqlite: '}library ≤ ${limit}× raw at ${p}`, measured: times(r), met: r <= limit });
    }
  }
  if (result.sides.length === 0) throw new Error(`${id}: a side is missing`);
  return result;
}
