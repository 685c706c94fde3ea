// Reading the clock port: every time the facade takes (append times, watch and drain times, the
// restart scan's time, prune times) is checked to be a finite number of milliseconds a Date can
// hold; a port that throws or answers anything else is a ClockError, never a value passed on.
import type { Clock } from '@session-state/domain';

import { describeFailure } from './storeOperationError.js';

/** The largest epoch time a Date holds (±100,000,000 days), in ms. */
const MAX_CLOCK_MS = 8.64e15;

/**
 * The clock port failed: it threw, or returned something that is not a finite number of
 * milliseconds. `operation` names the facade operation (or `prune` for the retention schedule)
 * that needed the time; nothing was written for it.
 */
export class ClockError extends Error {
  override readonly name = 'ClockError';
  /** The operation that read the clock, e.g. `record`, `drain`, `prune`. */
  readonly operation: string;

  constructor(operation: string, problem: string, cause?: unknown) {
    super(`session-state ${operation} failed: the clock port ${problem}`, cause === undefined ? undefined : { cause });
    this.operation = operation;
  }
}

/** What a bad reading was, by type (a reading is never echoed whole). */
function describeReading(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return `a number beyond ±${MAX_CLOCK_MS}`;
  }
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

/**
 * Reads the clock once for `operation`: the time in epoch ms, or the ClockError saying what was
 * wrong. No allocation on the good path (a number, not a wrapper), since `record` reads it per call.
 */
export function readClock(clock: Clock, operation: string): number | ClockError {
  let value: unknown;
  try {
    value = clock.now();
  } catch (error) {
    return new ClockError(operation, `threw (${describeFailure(error)})`, error);
  }
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_CLOCK_MS) return value;
  return new ClockError(operation, `returned ${describeReading(value)}, not a finite number of epoch milliseconds`);
}
