// io-ts failures as one readable InvalidInput naming the field, what was expected and what it held, described by type and size,
// never repeated (any string a caller passes may be message content), so every boundary reports bad input alike.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

/** A rejected input: which field, what it held (described by type and size, see describeValue), and what was expected. */
export interface InvalidInput {
  readonly _tag: 'InvalidInput';
  readonly field: string;
  readonly value: string;
  readonly expected: string;
  readonly message: string;
}

/** The codec of the values `is` accepts, named by what they must be. */
export const refinement = <A extends O, O>(name: string, is: (u: unknown) => u is A): t.Type<A, O, unknown> =>
  new t.Type<A, O, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), (a) => a);

/** `n` with the noun, singular or plural. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Describes a value by its type and size only (`a string of 1234 characters`, `an object with
 * 3 keys`, `an array of 2 items`); numbers, booleans, null and undefined as they are. Used where
 * the value may be message content, so none of its text reaches an error message or a log.
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value === '' ? 'an empty string' : `a string of ${count(value.length, 'character')}`;
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'object':
      break;
    default:
      return `a ${typeof value}`;
  }
  if (value === null) return 'null';
  // An array by its length, an object by its key count; one whose shape cannot be read (a revoked Proxy) as `an object`.
  try {
    return Array.isArray(value) ? `an array of ${count(value.length, 'item')}` : `an object with ${count(Object.keys(value).length, 'key')}`;
  } catch {
    return 'an object';
  }
}

/** The rejection of `value` at `field`; the value is described (describeValue) unless the caller says what happened instead. */
export function invalidInput(field: string, value: unknown, expected: string, rendered = describeValue(value)): InvalidInput {
  return {
    _tag: 'InvalidInput',
    field,
    value: rendered,
    expected,
    message: `invalid ${field}: expected ${expected}, got ${rendered}`,
  };
}

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
