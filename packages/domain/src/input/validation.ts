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

/** A strict object's decoded value: its required fields and the optional ones given. */
export type StrictFields<R extends t.Props, O extends t.Props> = t.TypeOfProps<R> & t.TypeOfPartialProps<O>;

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Decodes a field in its parent's context, so a valid field allocates none; a failure's errors get the field's entry, as `t.type` gives it. */
function decodeField(codec: t.Mixed, key: string, value: unknown, c: t.Context): t.Validation<unknown> {
  const result = codec.validate(value, c);
  if (E.isRight(result)) return result;
  const entry = { key, type: codec, actual: value };
  return t.failures(result.left.map((error) => ({ ...error, context: [...c, entry, ...error.context.slice(c.length)] })));
}

/**
 * A codec for a plain object of only the `required` and `optional` fields: each read and decoded once, required ones
 * first, the first failure ending the decode; an undefined optional field counts as left out.
 */
export function strictType<R extends t.Props, O extends t.Props>(required: R, optional: O): t.Type<StrictFields<R, O>, unknown, unknown> {
  const codecs: t.Props = { ...required, ...optional };
  const order = Object.keys(codecs);
  const codecList = Object.values(codecs);
  const requiredCount = Object.keys(required).length;
  const knownSet = new Set(order);
  const unknownField = `no such field (known: ${order.join(', ')})`;
  const is = (u: unknown): u is StrictFields<R, O> =>
    isObject(u) && Object.keys(u).every((key) => knownSet.has(key)) && order.every((key, i) => (u[key] === undefined && i >= requiredCount) || codecList[i]?.is(u[key]));
  const validate = (u: unknown, c: t.Context): t.Validation<StrictFields<R, O>> => {
    if (!isObject(u)) return t.failure(u, c, 'an object');
    for (const key of Object.keys(u)) {
      if (knownSet.has(key)) continue;
      const value = u[key];
      return t.failure(value, t.appendContext(c, key, t.unknown, value), unknownField);
    }
    const fields: Record<string, unknown> = {};
    for (let i = 0; i < order.length; i += 1) {
      const key = order[i] as string;
      const value = u[key];
      if (value === undefined && i >= requiredCount) continue;
      const result = decodeField(codecList[i] as t.Mixed, key, value, c);
      if (E.isLeft(result)) return result;
      fields[key] = result.right;
    }
    return t.success(fields as StrictFields<R, O>);
  };
  return new t.Type(`an object of ${order.join(', ')}`, is, validate, t.identity);
}

/** `n` with the noun, singular or plural. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A value by its type and size only (`a string of 1234 characters`, `an object with 3 keys`, `an array of 2 items`), numbers,
 * booleans, null and undefined as they are: the value may be message content, so none of its text reaches an error or a log.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? 'an empty string' : `a string of ${count(value.length, 'character')}`;
  if (value === null || ['number', 'boolean', 'undefined'].includes(typeof value)) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
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

/** The field path of a failure: `root`, then the context's keys (its first entry is the decoded value itself). */
function pathOf(context: t.Context, root: string): string {
  return [...(root === '' ? [] : [root]), ...context.slice(1).map((entry) => entry.key)].join('.') || root;
}

/** Decodes `value`: a failure is the first error's InvalidInput, its path below `field` (`record.payload.outcome`), its codec's name expected. */
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
