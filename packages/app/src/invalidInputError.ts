// The error every facade method (but `record`, which returns it) rejects bad input with.
import type { InvalidInput } from '@session-state/domain';

/**
 * Bad input at the facade boundary: names the field, the offending value (rendered short and
 * single-line) and what was expected.
 *
 * @example
 * try { await awareness.status('has space') } catch (e) { if (e instanceof InvalidInputError) console.log(e.field) }
 */
export class InvalidInputError extends Error {
  override readonly name = 'InvalidInputError';
  /** The path of the rejected field, e.g. `status.changesSince` or `record.payload.outcome`. */
  readonly field: string;
  /** The rejected value, rendered (strings quoted and cut at 80 characters; objects as `an object`). */
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
