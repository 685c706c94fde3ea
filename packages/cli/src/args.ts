// Parsers for command-line values: each accepts the text the user typed or throws a usage error
// naming the argument and describing the value by type and size, never its text (exit status 2).
// Commander's own InvalidArgumentError is not used: commander would quote the value.
import { Argument, Option } from 'commander';
import { describeValue, isSessionKey, MAX_PAGE_LIMIT, SESSION_KEY_EXPECTED } from '@session-state/domain';

import { UsageError } from './output/errors.js';

/** A value a parser refused: what was expected and what came, described by type and size. */
class InvalidValue extends Error {
  override readonly name = 'InvalidValue';
}

function invalid(expected: string, value: string): InvalidValue {
  return new InvalidValue(`expected ${expected}, got ${describeValue(value)}`);
}

/**
 * The parser for `argument` (as the help shows it: `--since`, `<sessionKey>`): a refused value
 * becomes a UsageError naming it.
 *
 * @example new Option('--since <N>').argParser(named('--since', parseSequence))
 */
export function named<T>(argument: string, parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (error) {
      if (error instanceof InvalidValue) throw new UsageError(argument, error.message);
      throw error;
    }
  };
}

/** The parser of a value `accepts` takes as it is, refused as `expected`. */
export function accepting(accepts: (value: string) => boolean, expected: string): (value: string) => string {
  return (value) => {
    if (!accepts(value)) throw invalid(expected, value);
    return value;
  };
}

/** A session key argument, validated by the same rule as the library. */
export const parseSessionKey = accepting(isSessionKey, SESSION_KEY_EXPECTED);

/**
 * An option whose value `parse` checks, a refused value named by the option's long flag.
 *
 * @example checkedOption('--since <N>', 'list the events after sequence N', parseSequence)
 */
export function checkedOption(flags: string, description: string, parse: (value: string) => unknown): Option {
  return new Option(flags, description).argParser(named(flags.split(' ')[0] ?? flags, parse));
}

/** A command argument such as `<sessionKey>` holding a session key. */
export function sessionKeyArgument(name: string, description: string): Argument {
  return new Argument(name, description).argParser(named(name, parseSessionKey));
}

/**
 * The parser of an option with a fixed set of values: the option gets commander's `.choices()`
 * for its help and completion, and this parser for the check, since commander's own message
 * would quote the refused value.
 *
 * @example new Option('--actor <type>').choices(types).argParser(named('--actor', oneOf(types)))
 */
export const oneOf = (choices: readonly string[]): ((value: string) => string) => accepting((value) => choices.includes(value), `one of ${choices.join(', ')}`);

/** The parser of a safe integer (at most `digits` decimal digits) from `min` to `max`, refused as `expected`. */
export function integerFrom(min: number, max: number, expected: string, digits = 16): (value: string) => number {
  const decimal = new RegExp(`^\\d{1,${digits}}$`, 'u');
  return (value) => {
    const n = decimal.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw invalid(expected, value);
    return n;
  };
}

export const parseSequence = integerFrom(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');
export const parsePageLimit = integerFrom(1, MAX_PAGE_LIMIT, `an integer from 1 to ${MAX_PAGE_LIMIT}`);
export const parsePositiveInteger = integerFrom(1, Number.MAX_SAFE_INTEGER, 'a positive integer');

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A positive duration with a unit, `30d`, `12h`, `90m`, `45s` or `500ms`, as milliseconds. */
export function parseDuration(value: string): number {
  const [, amount, unit] = /^(\d{1,9})(ms|s|m|h|d)$/u.exec(value) ?? [];
  if (amount === undefined || Number(amount) < 1) throw invalid('a positive duration such as 30d, 12h, 90m, 45s or 500ms', value);
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

/** A JSON object argument such as `--payload '{"channel":"telegram"}'`. */
export function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidValue(`expected a JSON object, got ${describeValue(value)} that is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidValue(`expected a JSON object, got ${describeValue(parsed)}`);
  }
  return parsed as Record<string, unknown>;
}
