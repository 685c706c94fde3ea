// Reading the clock, and how an operation reports a store failure, a bad clock reading or a
// call after close(): logged (identifiers only) and mapped to the error it rejects with or returns.
import type { Clock, Logger } from '@session-state/domain';

import { ClockError, ClosedError, describeFailure, StoreOperationError } from './errors.js';

/** The largest epoch time a Date holds, in ms. */
const MAX_CLOCK_MS = 8.64e15;

/** What a bad reading was, by type (a reading is never echoed whole). */
function describeReading(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? `a number beyond ±${MAX_CLOCK_MS}` : String(value);
  if (value === null || value === undefined) return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads the clock once for `operation`: epoch ms, or the ClockError saying what was wrong. */
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

/** Identifiers (keys, kinds) a failure's log entry carries; never content. */
export type FailureFields = Record<string, string>;

export type Failures = ReturnType<typeof createFailures>;

export function createFailures(logger: Logger, clock: Clock, isClosed: () => boolean) {
  /** Logs a bad clock reading and returns it. */
  const clockFailure = (error: ClockError, fields: FailureFields = {}): ClockError => {
    logger.error({ operation: error.operation, ...fields, error: error.message }, 'clock port failed');
    return error;
  };
  /** Logs a store failure and returns the StoreOperationError to report. */
  const store = (operation: string, cause: unknown, fields: FailureFields = {}): StoreOperationError => {
    logger.error({ operation, ...fields, error: describeFailure(cause) }, 'store operation failed');
    return new StoreOperationError(operation, cause);
  };
  return {
    store,
    /** Runs the store call `call`; its failure rejects as a logged StoreOperationError of `operation`. */
    async storeCall<T>(operation: string, call: () => Promise<T>, fields: FailureFields = {}): Promise<T> {
      try {
        return await call();
      } catch (error) {
        throw store(operation, error, fields);
      }
    },
    clock: clockFailure,
    /** The time, or a logged ClockError thrown. */
    now(operation: string, fields: FailureFields = {}): number {
      const now = readClock(clock, operation);
      if (typeof now !== 'number') throw clockFailure(now, fields);
      return now;
    },
    /** Throws the ClosedError of `operation` once close() was called. */
    ensureOpen(operation: string): void {
      if (isClosed()) throw new ClosedError(operation);
    },
  };
}
