// The error a facade method reports when the store behind it failed.
import { failureMessage } from '@session-state/domain';

/**
 * A storage failure seen through the facade: `operation` names the facade method (e.g. `drain`),
 * the message says what the store reported. The store's own error is kept as `cause`.
 */
export class StoreOperationError extends Error {
  override readonly name = 'StoreOperationError';
  /** The facade operation that failed, e.g. `record`, `drain`, `status`. */
  readonly operation: string;

  constructor(operation: string, cause: unknown) {
    super(`session-state ${operation} failed: ${describeFailure(cause)}`, { cause });
    this.operation = operation;
  }
}

/**
 * The message of a store failure (a StoreError, an Error or anything thrown), for errors and
 * logs: the real cause's own words once. A StoreOperationError passed on as a cause is unwrapped,
 * so a message never reads "session-state record failed: session-state record failed: …".
 * Never throws.
 */
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
