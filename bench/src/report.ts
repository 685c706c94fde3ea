// The report: the printed table (ops/s, p50, p99 per side and the library/raw ratios), the
// target checks, and the same figures written to bench/results.json.
import { writeFileSync } from 'node:fs';

import type { SideResult, WorkloadResult } from './harness/context.js';
import { PG_POOL_SIZE } from './postgres/context.js';
import type { PgColumn } from './workloads/pgColumn.js';

/** The machine line and what was run. */
export interface RunInfo {
  readonly machine: string;
  readonly mode: 'full' | 'quick';
  readonly startedAt: string;
  readonly durationS: number;
  readonly loadAvgAtStart: readonly number[];
}

// --- formatting --------------------------------------------------------------------------

const num = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');

/** As `num`, with two decimals below 10 (a PostgreSQL restart scan runs at a few per second). */
const fineNum = (x: number): string => (Number.isFinite(x) && x < 10 ? x.toFixed(2) : num(x));

/** A latency in µs, printed in µs below 10 ms and in ms above. */
export function latency(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us < 100) return `${us.toFixed(1)} µs`;
  if (us < 10_000) return `${us.toFixed(0)} µs`;
  return `${(us / 1000).toFixed(1)} ms`;
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const right = new Set([3, 4, 5, 6, 7, 8]);
  return rows
    .map((r) => r.map((cell, c) => (right.has(c) ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

/** library/raw of one driver's pair of sides: `library` and `raw`, or `library node:sqlite` and `raw node:sqlite`. */
function ratioCell(sides: readonly SideResult[], pick: (s: SideResult) => number, driver = ''): string {
  const lib = sides.find((s) => s.side === `library${driver}`);
  const raw = sides.find((s) => s.side === `raw${driver}`);
  if (lib === undefined || raw === undefined) return '';
  const r = pick(lib) / pick(raw);
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : '';
}

/** The workload table: one row per side, the ratios on the library row. */
function workloadTable(results: readonly WorkloadResult[], opsCell: (x: number) => string = num): string {
  const header = ['#', 'workload', 'side', 'ops/s', 'p50', 'p99', 'lib/raw ops/s', 'lib/raw p50', 'lib/raw p99', 'op'];
  const rows: string[][] = [header];
  for (const w of results) {
    for (const [i, s] of w.sides.entries()) {
      // The ratios go on the library row of each driver's pair (the node:sqlite column's too).
      const driver = s.side === 'library node:sqlite' ? ' node:sqlite' : '';
      const first = i === 0 || driver !== '';
      const extra = s.maxBlockMs !== undefined ? `${s.op}; total ${s.totalMs.toFixed(0)} ms, max loop block ${s.maxBlockMs.toFixed(1)} ms` : s.op;
      rows.push([
        i === 0 ? w.id : '',
        i === 0 ? w.title : '',
        s.side,
        opsCell(s.opsPerSec),
        latency(s.p50Us),
        latency(s.p99Us),
        first && s.side.startsWith('library') ? ratioCell(w.sides, (x) => x.opsPerSec, driver) : '',
        first && s.side.startsWith('library') && w.latencyComparable !== false ? ratioCell(w.sides, (x) => x.p50Us, driver) : '',
        first && s.side.startsWith('library') && w.latencyComparable !== false ? ratioCell(w.sides, (x) => x.p99Us, driver) : '',
        extra,
      ]);
    }
  }
  return table(rows);
}

const notesOf = (results: readonly WorkloadResult[]): string[] => results.flatMap((w) => w.notes ?? []).map((n) => `  ${n}`);

/** One line per target check: `  MET     1    library ≤ 1.2× raw at p50: 1.05×`. */
const checksOf = (results: readonly WorkloadResult[]): string[] =>
  results.flatMap((w) => w.checks.map((c) => `  ${c.met ? 'MET   ' : 'MISSED'}  ${w.id.padEnd(4)} ${c.target}: ${c.measured}`));

/** The PostgreSQL section: its own table with the same columns, and its notes; or why it was skipped. */
function pgSection(column: PgColumn): string[] {
  if (!column.ran) return ['', `PostgreSQL: column skipped, cannot use the server at ${column.url} (${column.reason}).`];
  const { server } = column;
  const notes = notesOf(column.results);
  const checks = checksOf(column.results);
  return [
    '',
    `PostgreSQL (server ${server.version} at ${server.url}, synchronous_commit=${server.synchronousCommit}): library = facade over openPostgresStore,`,
    `raw = pg Pool running the same named statements in the same BEGIN … COMMIT shape; each side on a fresh schema, ${PG_POOL_SIZE} connections each.`,
    '',
    workloadTable(column.results, fineNum),
    ...(checks.length > 0 ? ['', 'targets (PostgreSQL):', ...checks] : []),
    ...(notes.length > 0 ? ['', 'notes:', ...notes] : []),
  ];
}

/** The printed report; the PostgreSQL section follows when the column was asked for. */
export function renderReport(info: RunInfo, results: readonly WorkloadResult[], pg?: PgColumn): string {
  const checks = checksOf(results);
  const notes = notesOf(results);
  // `--only pg…` runs no SQLite workload: no empty table and targets then.
  const sqlite =
    results.length === 0 && pg !== undefined
      ? []
      : [
          '',
          workloadTable(results),
          '',
          'targets (ratios to the raw baseline measured in this run):',
          ...checks,
          ...(notes.length > 0 ? ['', 'notes:', ...notes] : []),
        ];
  return [
    `session-state bench (${info.mode} run, ${info.startedAt}, ${info.durationS.toFixed(0)} s)`,
    `machine: ${info.machine}; load average at start ${info.loadAvgAtStart.map((l) => l.toFixed(2)).join(' ')}`,
    ...sqlite,
    ...(pg !== undefined ? pgSection(pg) : []),
  ].join('\n');
}

/** Writes the same figures as JSON (NaN becomes null); the PostgreSQL column under `postgres`. */
export function writeResults(path: string, info: RunInfo, results: readonly WorkloadResult[], pg?: PgColumn): void {
  writeFileSync(path, `${JSON.stringify({ ...info, workloads: results, ...(pg !== undefined ? { postgres: pg } : {}) }, null, 2)}\n`);
}
