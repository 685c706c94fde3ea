// The error every facade method (but `record`, which returns it) rejects bad input with.
import type { InvalidInput } from '@session-state/domain';

/**
 * Bad input at the facade boundary: names the field, what it held and what was expected. What
 * it held is described by type and size (`a string of 1234 characters`, `an object with 3 keys`)
 * so that no message content reaches an error or a log: no string the caller passed is repeated,
 * however short.
 *
 * @example
 * try { await awareness.status('has space') } catch (e) { if (e instanceof InvalidInputError) console.log(e.field) }
 */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  /** The path of the rejected field, e.g. `status.changesSince` or `record.payload.outcome`. */
  readonly field: string;
  /** The rejected value, described: `a string of 1234 characters`, `an object with 3 keys`, `NaN`, `a hole (the array is sparse)`. */
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
