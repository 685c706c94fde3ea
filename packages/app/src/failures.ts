// How a facade operation reports what went wrong: a store failure or a bad clock reading is
// logged (identifiers only) and becomes the error the operation rejects with or returns, and a
// call after close() is a ClosedError. Which methods reject and which return is the README's
// error rule ("Errors").
import type { Clock, Logger } from '@session-state/domain';

import { ClockError, readClock } from './clockReading.js';
import { ClosedError, describeFailure, StoreOperationError } from './storeOperationError.js';

/** Identifiers (keys, kinds) a failure's log entry carries; never content. */
export type FailureFields = Record<string, string>;

export interface Failures {
  /** Logs a store failure of a facade operation and returns the StoreOperationError to report. */
  store(operation: string, cause: unknown, fields?: FailureFields): StoreOperationError;
  /** Logs a bad clock reading of a facade operation and returns it, to reject with or return. */
  clock(error: ClockError, fields?: FailureFields): ClockError;
  /** A clock reading inside an operation: the time, or a logged ClockError thrown. */
  now(operation: string, fields?: FailureFields): number;
  /** Throws the ClosedError of `operation` once close() was called. */
  ensureOpen(operation: string): void;
}

export interface FailuresDeps {
  readonly logger: Logger;
  readonly clock: Clock;
  /** True from the call of close() on. */
  readonly isClosed: () => boolean;
}

export function createFailures({ logger, clock, isClosed }: FailuresDeps): Failures {
  const clockFailure = (error: ClockError, fields: FailureFields = {}): ClockError => {
    logger.error({ operation: error.operation, ...fields, error: error.message }, 'clock port failed');
    return error;
  };
  return {
    store(operation, cause, fields = {}) {
      logger.error({ operation, ...fields, error: describeFailure(cause) }, 'store operation failed');
      return new StoreOperationError(operation, cause);
    },
    clock: clockFailure,
    now(operation, fields = {}) {
      const now = readClock(clock, operation);
      if (typeof now !== 'number') throw clockFailure(now, fields);
      return now;
    },
    ensureOpen(operation) {
      if (isClosed()) throw new ClosedError(operation);
    },
  };
}
