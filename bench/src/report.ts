// The report: the printed table (ops/s, p50, p99 per side and the library/raw ratios), the target
// checks and the notes, and the same figures written to bench/results.json.
import { writeFileSync } from 'node:fs';

import type { SideResult, WorkloadResult } from './harness/context.js';
import { PG_POOL_SIZE, type PgServerInfo } from './postgres/server.js';

export interface RunInfo {
  readonly machine: string;
  readonly mode: 'full' | 'quick';
  readonly startedAt: string;
  readonly durationS: number;
  readonly loadAvgAtStart: readonly number[];
}

export type PgColumn =
  | { readonly ran: true; readonly server: PgServerInfo; readonly results: readonly WorkloadResult[] }
  | { readonly ran: false; readonly url: string; readonly reason: string };

const num = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
/** Two decimals below 10 (a PostgreSQL restart scan runs at a few per second). */
const fineNum = (x: number): string => (Number.isFinite(x) && x < 10 ? x.toFixed(2) : num(x));

/** A latency in µs, printed in ms from 10 ms up. */
export function latency(us: number): string {
  if (!Number.isFinite(us)) return '—';
  return us < 100 ? `${us.toFixed(1)} µs` : us < 10_000 ? `${us.toFixed(0)} µs` : `${(us / 1000).toFixed(1)} ms`;
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => (c >= 3 && c <= 8 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ').trimEnd()).join('\n');
}

function ratioCell(sides: readonly SideResult[], pick: (s: SideResult) => number, driver: string): string {
  const lib = sides.find((s) => s.side === `library${driver}`);
  const raw = sides.find((s) => s.side === `raw${driver}`);
  const r = lib === undefined || raw === undefined ? Number.NaN : pick(lib) / pick(raw);
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : '';
}

function workloadTable(results: readonly WorkloadResult[], opsCell: (x: number) => string = num): string {
  const rows: string[][] = [['#', 'workload', 'side', 'ops/s', 'p50', 'p99', 'lib/raw ops/s', 'lib/raw p50', 'lib/raw p99', 'op']];
  for (const w of results) {
    for (const [i, s] of w.sides.entries()) {
      const driver = s.side === 'library node:sqlite' ? ' node:sqlite' : '';
      const ratios = (i === 0 || driver !== '') && s.side.startsWith('library');
      const latencyRatio = (pick: (x: SideResult) => number): string => (ratios && w.latencyComparable !== false ? ratioCell(w.sides, pick, driver) : '');
      rows.push([
        i === 0 ? w.id : '',
        i === 0 ? w.title : '',
        s.side,
        opsCell(s.opsPerSec),
        latency(s.p50Us),
        latency(s.p99Us),
        ratios ? ratioCell(w.sides, (x) => x.opsPerSec, driver) : '',
        latencyRatio((x) => x.p50Us),
        latencyRatio((x) => x.p99Us),
        s.maxBlockMs !== undefined ? `${s.op}; total ${s.totalMs.toFixed(0)} ms, max loop block ${s.maxBlockMs.toFixed(1)} ms` : s.op,
      ]);
    }
  }
  return table(rows);
}

const notesOf = (results: readonly WorkloadResult[]): string[] => results.flatMap((w) => w.notes ?? []).map((n) => `  ${n}`);
const checksOf = (results: readonly WorkloadResult[]): string[] => results.flatMap((w) => w.checks.map((c) => `  ${c.met ? 'MET   ' : 'MISSED'}  ${w.id.padEnd(4)} ${c.target}: ${c.measured}`));
const section = (heading: string, lines: readonly string[]): string[] => (lines.length > 0 ? ['', heading, ...lines] : []);
/** A column's table, its target checks under `targets` and its notes. */
const columnLines = (results: readonly WorkloadResult[], targets: string, opsCell?: (x: number) => string): string[] => ['', workloadTable(results, opsCell), ...section(targets, checksOf(results)), ...section('notes:', notesOf(results))];

function pgSection(column: PgColumn): string[] {
  if (!column.ran) return ['', `PostgreSQL: column skipped, cannot use the server at ${column.url} (${column.reason}).`];
  const { server, results } = column;
  return [
    '',
    `PostgreSQL (server ${server.version} at ${server.url}, synchronous_commit=${server.synchronousCommit}): library = facade over openPostgresStore,`,
    `raw = pg Pool running the same named statements in the same BEGIN … COMMIT shape; each side on a fresh schema, ${PG_POOL_SIZE} connections each.`,
    ...columnLines(results, 'targets (PostgreSQL):', fineNum),
  ];
}

export function renderReport(info: RunInfo, results: readonly WorkloadResult[], pg?: PgColumn): string {
  const sqlite = results.length === 0 && pg !== undefined ? [] : columnLines(results, 'targets (ratios to the raw baseline measured in this run):');
  return [
    `session-state bench (${info.mode} run, ${info.startedAt}, ${info.durationS.toFixed(0)} s)`,
    `machine: ${info.machine}; load average at start ${info.loadAvgAtStart.map((l) => l.toFixed(2)).join(' ')}`,
    ...sqlite,
    ...(pg !== undefined ? pgSection(pg) : []),
  ].join('\n');
}

/** The same figures as JSON (NaN becomes null); the PostgreSQL column under `postgres`. */
export function writeResults(path: string, info: RunInfo, results: readonly WorkloadResult[], pg?: PgColumn): void {
  writeFileSync(path, `${JSON.stringify({ ...info, workloads: results, ...(pg !== undefined ? { postgres: pg } : {}) }, null, 2)}\n`);
}
