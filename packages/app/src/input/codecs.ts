// io-ts codecs for the facade's inputs other than `record` (the domain decodes that): strict
// objects whose unknown fields are rejected, decoded into values or an InvalidInputError.
import { decodeInput, DedupeKey, invalidInput, PageLimit, Sequence, SESSION_KEY_EXPECTED, SessionKeyInput, strictType, Summary } from '@session-state/domain';
import type { InvalidInput, SessionKey } from '@session-state/domain';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

import { InvalidInputError } from '../errors/errors.js';
import { decodeReadable } from './unreadable.js';

export const ChildSpawnedInput = strictType({ parentKey: SessionKeyInput, childKey: SessionKeyInput }, { summary: Summary, dedupeKey: DedupeKey });
export const SentInput = strictType({ senderKey: SessionKeyInput, deliveredTo: SessionKeyInput, watch: t.boolean }, { delivered: t.boolean });
export const WatchOptions = strictType({}, { ambient: t.boolean });
export const StatusOptions = strictType({}, { changesSince: Sequence, limit: PageLimit, reader: SessionKeyInput });
const SessionKeys = t.array(SessionKeyInput, 'an array of session keys');
export const SessionStatusInput = strictType({ sessionKey: SessionKeyInput }, { changesSince: Sequence, limit: PageLimit });
export const SessionsListInput = strictType({ sessionKeys: SessionKeys }, {});

const integerCodec = (name: string, is: (u: number) => boolean): t.Type<number, number, unknown> => {
  const guard = (u: unknown): u is number => typeof u === 'number' && Number.isSafeInteger(u) && is(u);
  return new t.Type(name, guard, (u, c) => (guard(u) ? t.success(u) : t.failure(u, c)), (a) => a);
};
const PositiveInteger = integerCodec('a positive safe integer', (u) => u > 0);
export const NoticesWaitInput = strictType({}, { timeoutSeconds: integerCodec('an integer from 0 to 300', (u) => u >= 0 && u <= 300) });
export const RetentionOptions = strictType({}, { maxAgeMs: PositiveInteger, maxRows: PositiveInteger, cursorMaxAgeMs: PositiveInteger });
export const StartupOptions = strictType({}, { restartScan: t.boolean, prune: t.keyof({ background: null, off: null }, "'background' or 'off'") });
export const TrueOrFalse = new t.Type<boolean, boolean, unknown>('true or false', t.boolean.is, t.boolean.validate, t.identity);
export const AgentToolsOptionsInput = strictType({}, { reader: SessionKeyInput, allowWrite: TrueOrFalse, notices: TrueOrFalse });

/** The longest delay a Node.js timer takes; a longer one would fire after 1 ms instead. */
const MAX_TIMER_DELAY_MS = 2_147_483_647;

export const ResyncInterval = integerCodec(`whole milliseconds from 0 (off) to ${MAX_TIMER_DELAY_MS}`, (u) => u >= 0 && u <= MAX_TIMER_DELAY_MS);
export const LeaseMs = integerCodec(`whole milliseconds from 1 to ${MAX_TIMER_DELAY_MS}`, (u) => u >= 1 && u <= MAX_TIMER_DELAY_MS);
/** What `confirm` acknowledges: each taken notice's target and frozen watermark; not strict, since a TakenNotice carries more fields. */
export const TakenNotices = t.readonlyArray(t.type({ target: SessionKeyInput, notified: Sequence }), 'an array of the notices take returned');

function orThrow<A>(result: E.Either<InvalidInput, A>): A {
  if (E.isLeft(result)) throw new InvalidInputError(result.left);
  return result.right;
}

/** Decodes `value` with `codec` (a strictType reads each field once); paths start at `field`. Input that throws when read is invalid too. */
export const decode = <A>(codec: t.Type<A, unknown, unknown>, value: unknown, field: string): A => decodeReadable(field, value, () => orThrow(decodeInput(codec, value, field)));

/** An argument or option that may be left out: undefined stays undefined. */
export const decodeOptional = <A>(codec: t.Type<A, unknown, unknown>, value: unknown, field: string): A | undefined => (value === undefined ? undefined : decode(codec, value, field));

/** A session key argument, e.g. `pending.watcherKey`. */
export const decodeSessionKey = (value: unknown, field: string): SessionKey => decode(SessionKeyInput, value, field);

/** `list` keys, copied; a hole of a sparse array is named as such. */
export function decodeSessionKeys(value: unknown): SessionKey[] {
  return decodeReadable('list.sessionKeys', value, () => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        if (!(i in value)) throw new InvalidInputError(invalidInput(`list.sessionKeys.${i}`, undefined, SESSION_KEY_EXPECTED, 'a hole (the array is sparse)'));
      }
    }
    return orThrow(decodeInput(SessionKeys, value, 'list.sessionKeys')).slice();
  });
}

/** Checks that `value` is an object whose listed members are functions (a port). */
export function requirePort(value: unknown, field: string, methods: readonly string[], expected: string): void {
  const ok = typeof value === 'object' && value !== null && methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
  if (!ok) throw new InvalidInputError(invalidInput(field, value, expected));
}

export function requireFunction(value: unknown, field: string, expected: string): void {
  if (typeof value !== 'function') throw new InvalidInputError(invalidInput(field, value, expected));
}

/** A copy of `value`'s fields, which must all be `known`; their checks are left to the caller. */
export const requireKnownFields = (value: unknown, field: string, known: readonly string[]): Record<string, unknown> =>
  orThrow(decodeInput(strictType({}, Object.fromEntries(known.map((key) => [key, t.unknown]))), value, field));
