// The query parameters of the JSON endpoints, checked: a bad one is a 400 whose message names the
// parameter and what was expected, and describes the value only by `describeValue` (never its text).
import { describeValue, isSessionKey, SESSION_KEY_EXPECTED, type SessionKey } from '@session-state/domain';

/** A query parameter that was missing or not what the endpoint expects. */
export class BadParameterError extends Error {
  override readonly name = 'BadParameterError';
  constructor(parameter: string, message: string) {
    super(`${parameter}: ${message}`);
  }
}

/** The session key in parameter `name`, which must be present. */
export function sessionKeyParam(name: string, value: string | undefined): SessionKey {
  if (value === undefined) throw new BadParameterError(name, `required: ${SESSION_KEY_EXPECTED}`);
  if (!isSessionKey(value)) throw new BadParameterError(name, `expected ${SESSION_KEY_EXPECTED}, got ${describeValue(value)}`);
  return value;
}

/** The integer in parameter `name` from `min` to `max` (decimal digits only), or `fallback` when absent. */
export function integerParam(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = /^\d{1,16}$/u.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new BadParameterError(name, `expected an integer from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return parsed;
}
