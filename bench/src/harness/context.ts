// What every workload receives and returns: sizes, progress, fresh temp files, and the result
// rows (one per side) with the target checks the report prints.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sizes } from '../sizes.js';
import type { Progress } from './progress.js';
import type { SideStats } from './stats.js';

/** One side of a workload: `library` (facade over SQLite), `raw` (better-sqlite3), `memory`, and the same two on node:sqlite. */
export interface SideResult extends SideStats {
  readonly side: 'library' | 'raw' | 'memory' | 'library node:sqlite' | 'raw node:sqlite';
  /** What one measured op is, e.g. `record`, `batch of 100 records`, `prune to cap`. */
  readonly op: string;
  /** Workload 5: the longest event-loop block seen, in ms. */
  readonly maxBlockMs?: number;
}

/** One target of the issue, checked against this run's figures. */
export interface Check {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

export interface WorkloadResult {
  readonly id: string;
  readonly title: string;
  readonly sides: readonly SideResult[];
  readonly checks: readonly Check[];
  readonly notes?: readonly string[];
  /** False when one library op is not one raw op (workload 3's burst), so latency ratios mean nothing. */
  readonly latencyComparable?: boolean;
}

export interface BenchContext {
  readonly quick: boolean;
  /** `--large`: also run the sizes that take minutes (workload 6L, the restart scan at 1,000,000 cursors). */
  readonly large: boolean;
  readonly sizes: Sizes;
  readonly progress: Progress;
  /** A path for a new database file in this run's temp directory (each side its own). */
  tempDb(name: string): string;
}

/** Creates the run's temp directory; `dispose` removes it with every file in it. */
export function createTempDir(): { dir: string; tempDb: (name: string) => string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-bench-'));
  let n = 0;
  return {
    dir,
    tempDb: (name) => join(dir, `${String(++n).padStart(2, '0')}-${name}.db`),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Ratio of the library's figure to the raw one (lower is better for latencies). */
export const ratio = (library: number, raw: number): number => library / raw;

/** Workloads 1 and 4's node:sqlite column: the library and raw sides on node:sqlite, and the same targets as better-sqlite3's. */
export function nodeSqliteSides(ops: { readonly library: string; readonly raw: string }, lib: SideStats, base: SideStats, limit: number): Pick<WorkloadResult, 'sides' | 'checks'> {
  const p50 = ratio(lib.p50Us, base.p50Us);
  const p99 = ratio(lib.p99Us, base.p99Us);
  return {
    sides: [
      { side: 'library node:sqlite', op: ops.library, ...lib },
      { side: 'raw node:sqlite', op: ops.raw, ...base },
    ],
    checks: [
      { target: `node:sqlite: library ≤ ${limit}× raw at p50`, measured: times(p50), met: p50 <= limit },
      { target: `node:sqlite: library ≤ ${limit}× raw at p99`, measured: times(p99), met: p99 <= limit },
    ],
  };
}

/** `1.23×` */
export const times = (x: number): string => `${x.toFixed(2)}×`;

/**
 * A library-against-raw latency result: the two sides with what one op is on each, and the
 * targets "library ≤ `limit`× raw" at p50 and at p99.
 */
export function latencyResult(id: string, title: string, ops: { readonly library: string; readonly raw: string }, lib: SideStats, base: SideStats, limit: number): WorkloadResult {
  const p50 = ratio(lib.p50Us, base.p50Us);
  const p99 = ratio(lib.p99Us, base.p99Us);
  return {
    id,
    title,
    sides: [
      { side: 'library', op: ops.library, ...lib },
      { side: 'raw', op: ops.raw, ...base },
    ],
    checks: [
      { target: `library ≤ ${limit}× raw at p50`, measured: times(p50), met: p50 <= limit },
      { target: `library ≤ ${limit}× raw at p99`, measured: times(p99), met: p99 <= limit },
    ],
  };
}
