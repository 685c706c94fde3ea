// Turns io-ts decoding failures into one readable InvalidInput naming the field, the value and
// what was expected, so every boundary reports bad input the same way.
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';

// --- the domain error --------------------------------------------------------------------

/** A rejected input: which field, what it held (rendered safely), and what was expected. */
export interface InvalidInput {
  readonly _tag: 'InvalidInput';
  readonly field: string;
  readonly value: string;
  readonly expected: string;
  readonly message: string;
}

const MAX_RENDERED = 80;

/** Renders a value for an error message: short, single-line, never a whole payload. */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length <= MAX_RENDERED
      ? quoted
      : `${quoted.slice(0, MAX_RENDERED - 1)}…" (${value.length} characters)`;
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * Describes a value by its type and size only. Used where the value may be message content a
 * caller put under the wrong field name, so none of it reaches an error message or a log.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return 'an object';
  return renderValue(value);
}

/**
 * Renders a short string (an enum-like value such as a mistyped outcome) as is, and describes a
 * longer one by its size only: a value inside a payload may be message content.
 */
export function renderShortValue(value: unknown): string {
  return typeof value === 'string' && value.length > 32 ? describeValue(value) : renderValue(value);
}

export function invalidInput(field: string, value: unknown, expected: string, rendered = renderValue(value)): InvalidInput {
  return {
    _tag: 'InvalidInput',
    field,
    value: rendered,
    expected,
    message: `invalid ${field}: expected ${expected}, got ${rendered}`,
  };
}

// --- decoding ----------------------------------------------------------------------------

function pathOf(context: t.Context, root: string): string {
  // Intersection members appear in the context as keys '0', '1', …: they are not fields.
  const joined = context
    .filter((entry, i) => entry.key !== '' && (context[i - 1]?.type as { _tag?: string } | undefined)?._tag !== 'IntersectionType')
    .map((entry) => entry.key)
    .join('.');
  return joined === '' ? root : root === '' ? joined : `${root}.${joined}`;
}

/**
 * Decodes `value` with `codec`; a failure becomes the InvalidInput of the first error, with the
 * path below `field` (e.g. `record.payload.outcome`) and the codec's name as the expectation.
 */
export function decodeInput<A, O>(
  codec: t.Type<A, O, unknown>,
  value: unknown,
  field: string,
): E.Either<InvalidInput, A> {
  const result = codec.decode(value);
  if (E.isRight(result)) return result;
  const first = result.left[0];
  if (first === undefined) return E.left(invalidInput(field, value, codec.name));
  const last = first.context[first.context.length - 1];
  const expected = first.message ?? last?.type.name ?? codec.name;
  return E.left(invalidInput(pathOf(first.context, field), first.value, expected));
}
