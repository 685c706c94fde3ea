// The errors the facade reports: bad input, a failed store, a bad clock reading, a closed facade.
import { failureMessage, type InvalidInput } from '@session-state/domain';

/**
 * Bad input at the facade boundary: the field, what it held (described by type and size, never
 * echoed) and what was expected.
 *
 * @example
 * try { await awareness.status('has space') } catch (e) { if (e instanceof InvalidInputError) console.log(e.field) }
 */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  /** The path of the rejected field, e.g. `status.changesSince` or `record.payload.outcome`. */
  readonly field: string;
  /** The rejected value, described: `a string of 1234 characters`, `an object with 3 keys`, `NaN`. */
  readonly value: string;
  /** What the field must hold. */
  readonly expected: string;

  constructor(problem: InvalidInput) {
    super(problem.message);
    this.field = problem.field;
    this.value = problem.value;
    this.expected = problem.expected;
  }
}

/** A storage failure seen through the facade; the store's own error is kept as `cause`. */
export class StoreOperationError extends Error {
  override readonly name = 'StoreOperationError';
  /** The facade operation that failed, e.g. `record`, `drain`, `status`. */
  readonly operation: string;

  constructor(operation: string, cause: unknown) {
    super(`session-state ${operation} failed: ${describeFailure(cause)}`, { cause });
    this.operation = operation;
  }
}

/** The message of a store failure, a StoreOperationError cause unwrapped so no message repeats; never throws. */
export function describeFailure(cause: unknown): string {
  return failureMessage(cause instanceof StoreOperationError ? cause.cause : cause);
}

/** The error of every call made after `close()`. */
export class ClosedError extends Error {
  override readonly name = 'ClosedError';
  /** The facade operation that was called after close. */
  readonly operation: string;

  constructor(operation: string) {
    super(`session-state ${operation} called after close()`);
    this.operation = operation;
  }
}

/** The clock port threw or returned something that is not a finite epoch-ms number; nothing was written. */
export class ClockError extends Error {
  override readonly name = 'ClockError';
  /** The operation that read the clock, e.g. `record`, `drain`, `prune`. */
  readonly operation: string;

  constructor(operation: string, problem: string, cause?: unknown) {
    super(`session-state ${operation} failed: the clock port ${problem}`, cause === undefined ? undefined : { cause });
    this.operation = operation;
  }
}
