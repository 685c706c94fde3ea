// Input that throws when read (a getter, a revoked Proxy, a throwing toJSON) becomes an
// InvalidInputError naming, as far as it can be told, the field whose reading threw.
import { invalidInput } from '@session-state/domain';

import { InvalidInputError } from '../errors/errors.js';

/** How far the search for the throwing field looks: deep enough for any valid payload. */
const MAX_PROBE_DEPTH = 17;
const MAX_PROBED_FIELDS = 1000;

/** The name of what was thrown, by type only (its message may repeat the input's content). */
function thrownName(error: unknown): string {
  try {
    if (error instanceof Error) return typeof error.name === 'string' && /^\w{1,40}$/u.test(error.name) ? error.name : 'an error';
  } catch {
    // not even inspectable
  }
  return `a thrown ${typeof error}`;
}

/** The path of the first field whose reading throws, else of the first object with a `toJSON` function. */
function findUnreadable(value: unknown, path: string): string | undefined {
  let budget = MAX_PROBED_FIELDS;
  let withToJson: string | undefined;
  const probe = (node: unknown, at: string, depth: number): string | undefined => {
    if (typeof node !== 'object' || node === null || depth >= MAX_PROBE_DEPTH) return undefined;
    let keys: string[];
    try {
      keys = Object.keys(node);
    } catch {
      return at;
    }
    for (const key of keys) {
      budget -= 1;
      if (budget < 0) return undefined;
      const child = `${at}.${key}`;
      let inner: unknown;
      try {
        inner = (node as Record<string, unknown>)[key];
      } catch {
        return child;
      }
      if (key === 'toJSON' && typeof inner === 'function') withToJson ??= at;
      const found = probe(inner, child, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return probe(value, path, 0) ?? withToJson;
}

/** The InvalidInputError for `input` at `field` when reading it threw; no message or content reaches it. */
export function unreadableInput(field: string, input: unknown, error: unknown): InvalidInputError {
  let at: string;
  try {
    at = findUnreadable(input, field) ?? field;
  } catch {
    at = field;
  }
  return new InvalidInputError(
    invalidInput(at, undefined, 'a value that can be read without throwing', `a value whose reading threw (${thrownName(error)})`),
  );
}

/** Runs `decode`: an InvalidInputError passes through, anything else thrown becomes `unreadableInput`'s. */
export function decodeReadable<T>(field: string, input: unknown, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw unreadableInput(field, input, error);
  }
}
