// Turns per-operation samples (nanoseconds) into the figures the report prints: ops/s, p50, p99.

/** One side of one workload, summarised. Latencies are in microseconds. */
export interface SideStats {
  /** Operations measured (warm-up excluded). */
  readonly n: number;
  /** Operations per second over the measured wall time. */
  readonly opsPerSec: number;
  readonly p50Us: number;
  readonly p99Us: number;
  /** Wall time of the measured part, in milliseconds. */
  readonly totalMs: number;
}

/** The nearest-rank percentile `p` (0–100) of ascending `sorted` samples. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  const index = Math.min(sorted.length - 1, Math.max(0, rank - 1));
  return sorted[index] ?? Number.NaN;
}

/**
 * Summarises samples. `wallNs` is the elapsed time of the whole measured loop; ops/s comes
 * from it (not from the sum of samples) so per-op bookkeeping and awaits between ops count.
 */
export function summarise(samplesNs: readonly number[], wallNs: number, ops: number = samplesNs.length): SideStats {
  const sorted = Float64Array.from(samplesNs).sort();
  return {
    n: ops,
    opsPerSec: wallNs > 0 ? (ops * 1e9) / wallNs : Number.NaN,
    p50Us: percentile(sorted, 50) / 1e3,
    p99Us: percentile(sorted, 99) / 1e3,
    totalMs: wallNs / 1e6,
  };
}
