// The error a facade method reports when the store behind it failed.
import { isStoreError } from '@session-state/domain';

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

/** The message of a store failure (a StoreError, an Error or anything thrown), for errors and logs. */
export function describeFailure(cause: unknown): string {
  if (isStoreError(cause)) return cause.message;
  if (cause instanceof Error) return cause.message;
  return String(cause);
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
