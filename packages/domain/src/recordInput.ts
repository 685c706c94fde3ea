// The `record` input: its codec, the cross-field rules (run_failed outcome) and the validated
// append command the store receives.
import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import * as t from 'io-ts';

import { ActorType, EventKind, RunOutcome } from './eventKind';
import { Payload, PAYLOAD_MAX_BYTES, payloadBytes } from './payload';
import { isSessionKey, SessionKey, SessionKeyInput } from './sessionKey';
import { normaliseSummary, Summary, SUMMARY_MAX_LENGTH } from './summary';
import { decodeInput, describeValue, invalidInput, renderShortValue, type InvalidInput } from './validation';

// --- field codecs ------------------------------------------------------------------------

export interface DedupeKeyBrand {
  readonly DedupeKey: unique symbol;
}
export type DedupeKey = t.Branded<string, DedupeKeyBrand>;
const isDedupeKey = (u: unknown): u is DedupeKey =>
  typeof u === 'string' && u.length >= 1 && u.length <= 512 && !/[\u0000-\u001f\u007f-\u009f]/u.test(u);
export const DedupeKey = new t.Type<DedupeKey, string, unknown>(
  'a dedupe key of 1-512 characters without control characters',
  isDedupeKey,
  (u, c) => (isDedupeKey(u) ? t.success(u) : t.failure(u, c)),
  (a) => a,
);

// An ISO 8601 date or date-time as ECMAScript's Date.parse reads it reliably; anything else
// (e.g. "1", which V8 reads as 2001 in local time) is rejected.
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Epoch ms of an ISO string, or NaN. A date-time without an offset is read as UTC (not the
 * machine's local time zone), and a day that does not exist (2026-02-30) is rejected, so the
 * result never depends on where the code runs.
 */
function parseIsoString(text: string): number {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return Number.NaN;
  const [, date = '', time, zone] = match;
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) return Number.NaN;
  return time === undefined ? day : Date.parse(`${date}${time}${zone ?? 'Z'}`);
}

/** `occurredAt` as given (ISO string or epoch ms), decoded to a canonical ISO string. */
export const OccurredAt = new t.Type<string, string, unknown>(
  'an ISO date string or epoch milliseconds',
  (u): u is string => typeof u === 'string' && !Number.isNaN(parseIsoString(u)),
  (u, c) => {
    const ms = typeof u === 'number' && Number.isSafeInteger(u) ? u : typeof u === 'string' ? parseIsoString(u) : Number.NaN;
    if (Number.isNaN(ms) || Math.abs(ms) > 8.64e15) return t.failure(u, c);
    return t.success(new Date(ms).toISOString());
  },
  (a) => a,
);

const RecordFields = t.intersection([
  t.type({
    sessionKey: SessionKeyInput,
    kind: EventKind,
    actorType: ActorType,
    summary: Summary,
  }),
  t.partial({
    actorSessionKey: SessionKeyInput,
    payload: Payload,
    dedupeKey: DedupeKey,
    occurredAt: OccurredAt,
    onlyIfWatched: t.boolean,
  }),
]);

export type RecordFields = t.TypeOf<typeof RecordFields>;

// --- the validated command ---------------------------------------------------------------

/** A record input that passed every rule; `occurredAt` is still optional (the clock fills it). */
export interface AppendCommand {
  readonly sessionKey: SessionKey;
  readonly kind: EventKind;
  readonly actorType: ActorType;
  readonly actorSessionKey?: SessionKey;
  readonly summary: Summary;
  readonly payload?: Payload;
  readonly dedupeKey?: DedupeKey;
  readonly occurredAt?: string;
  readonly onlyIfWatched: boolean;
}

const RECORD_FIELDS = [
  'sessionKey',
  'kind',
  'actorType',
  'actorSessionKey',
  'summary',
  'payload',
  'dedupeKey',
  'occurredAt',
  'onlyIfWatched',
] as const;
const RECORD_FIELD_SET: ReadonlySet<string> = new Set(RECORD_FIELDS);

/** Rejects anything but a plain object holding only known fields. */
export function checkFields(
  value: unknown,
  field: string,
  known: readonly string[],
): E.Either<InvalidInput, Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return E.left(invalidInput(field, value, 'an object'));
  }
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      // An unknown field may hold message content (e.g. `content: "…"`): describe it, never echo it.
      const unknownValue = (value as Record<string, unknown>)[key];
      return E.left(
        invalidInput(`${field}.${key}`, unknownValue, `no such field (known: ${known.join(', ')})`, describeValue(unknownValue)),
      );
    }
  }
  return E.right(value as Record<string, unknown>);
}

/**
 * Validates a `record` input into an AppendCommand, or the first problem found. The common valid
 * input is checked by hand (plain typeof and set checks, no io-ts, no fp-ts pipe); anything the
 * fast check does not accept goes through the codecs, which give the same answer for valid input
 * and word every rejection.
 */
export function decodeRecordInput(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  const command = fastRecordInput(value);
  return command !== undefined ? E.right(command) : decodeRecordInputByCodecs(value, field);
}

/** The codec path of `decodeRecordInput`: the reference for its results and the source of its errors. */
export function decodeRecordInputByCodecs(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  return pipe(
    checkFields(value, field, RECORD_FIELDS),
    E.flatMap((fields) => decodeInput(RecordFields, fields, field)),
    E.flatMap((fields) => {
      if (fields.kind === 'run_failed') {
        const outcome: unknown = fields.payload?.['outcome'];
        if (!RunOutcome.is(outcome)) {
          return E.left(invalidInput(`${field}.payload.outcome`, outcome, `${RunOutcome.name} for run_failed`, renderShortValue(outcome)));
        }
      }
      const command: AppendCommand = {
        sessionKey: fields.sessionKey,
        kind: fields.kind,
        actorType: fields.actorType,
        summary: fields.summary,
        onlyIfWatched: fields.onlyIfWatched ?? false,
        ...(fields.actorSessionKey !== undefined ? { actorSessionKey: fields.actorSessionKey } : {}),
        ...(fields.payload !== undefined ? { payload: fields.payload } : {}),
        ...(fields.dedupeKey !== undefined ? { dedupeKey: fields.dedupeKey } : {}),
        ...(fields.occurredAt !== undefined ? { occurredAt: fields.occurredAt } : {}),
      };
      return E.right(command);
    }),
  );
}

// --- the fast path ---------------------------------------------------------------------------

const KINDS: ReadonlySet<unknown> = new Set(Object.keys(EventKind.keys));
const ACTOR_TYPES: ReadonlySet<unknown> = new Set(Object.keys(ActorType.keys));
const RUN_OUTCOMES: ReadonlySet<unknown> = new Set(Object.keys(RunOutcome.keys));
// What normaliseSummary would change besides the length cap: control runs and line separators.
const NEEDS_NORMALISING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/** A session key, or undefined. */
const sessionKeyOf = (u: unknown): SessionKey | undefined => (typeof u === 'string' && isSessionKey(u) ? u : undefined);

/**
 * The summary as the Summary codec decodes it, or undefined when the codec would reject it.
 * Most summaries are short single lines that normalise to themselves: one regex test and a
 * trim comparison settle those without building a new string.
 */
function summaryOf(u: unknown): Summary | undefined {
  if (typeof u !== 'string') return undefined;
  if (u.length !== 0 && u.length <= SUMMARY_MAX_LENGTH && !NEEDS_NORMALISING.test(u) && u.trim() === u) return u as Summary;
  const line = normaliseSummary(u);
  return line === '' ? undefined : (line as Summary);
}

// Upper bounds of the serialised size: a UTF-16 unit of a string is at most 6 bytes of JSON
// (a \uXXXX escape; UTF-8 needs at most 3, a surrogate pair 4 for two units); a finite number
// is at most 24 characters (-1.7976931348623157e+308).
const MAX_BYTES_PER_UNIT = 6;
const MAX_NUMBER_BYTES = 24;

/**
 * True when `u` is a one-level plain object of strings, finite numbers, booleans and nulls,
 * without a reserved key, whose serialised size is certainly within PAYLOAD_MAX_BYTES by an
 * upper bound, so the Payload codec would accept it: no JSON text is built. False means "not
 * shown here", not "invalid"; the caller then asks the codec.
 */
function isSmallFlatPayload(u: unknown): boolean {
  if (typeof u !== 'object' || u === null || Object.getPrototypeOf(u) !== Object.prototype) return false;
  let bound = 2; // {}
  for (const key of Object.keys(u)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    const value = (u as Record<string, unknown>)[key];
    bound += key.length * MAX_BYTES_PER_UNIT + 4; // "key":,
    switch (typeof value) {
      case 'string':
        bound += value.length * MAX_BYTES_PER_UNIT + 2;
        break;
      case 'number':
        if (!Number.isFinite(value)) return false;
        bound += MAX_NUMBER_BYTES;
        break;
      case 'boolean':
        bound += 5;
        break;
      default:
        if (value !== null) return false;
        bound += 4;
    }
  }
  return bound <= PAYLOAD_MAX_BYTES;
}

/**
 * The AppendCommand the codec path would return for `value`, or undefined when `value` is not a
 * plain object of known, valid fields (the codec path then decides and words the error).
 */
function fastRecordInput(value: unknown): AppendCommand | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const input = value as Partial<Record<(typeof RECORD_FIELDS)[number], unknown>>;
  for (const key in input) if (!RECORD_FIELD_SET.has(key)) return undefined;

  const sessionKey = sessionKeyOf(input.sessionKey);
  const { kind, actorType } = input;
  if (sessionKey === undefined || !KINDS.has(kind) || !ACTOR_TYPES.has(actorType)) return undefined;
  const summary = summaryOf(input.summary);
  if (summary === undefined) return undefined;

  const { actorSessionKey, payload, dedupeKey, occurredAt, onlyIfWatched } = input;
  if (actorSessionKey !== undefined && sessionKeyOf(actorSessionKey) === undefined) return undefined;
  if (payload !== undefined && !isSmallFlatPayload(payload) && !(Payload.is(payload) && payloadBytes(payload) <= PAYLOAD_MAX_BYTES)) return undefined;
  if (dedupeKey !== undefined && !isDedupeKey(dedupeKey)) return undefined;
  if (onlyIfWatched !== undefined && typeof onlyIfWatched !== 'boolean') return undefined;
  let occurredAtIso: string | undefined;
  if (occurredAt !== undefined) {
    const decoded = OccurredAt.decode(occurredAt);
    if (E.isLeft(decoded)) return undefined;
    occurredAtIso = decoded.right;
  }
  if (kind === 'run_failed' && !RUN_OUTCOMES.has((payload as Payload | undefined)?.['outcome'])) return undefined;

  // The codec path's key order, by assignment (no spreads on the hot path).
  const command: { -readonly [K in keyof AppendCommand]: AppendCommand[K] } = {
    sessionKey,
    kind: kind as EventKind,
    actorType: actorType as ActorType,
    summary,
    onlyIfWatched: onlyIfWatched ?? false,
  };
  if (actorSessionKey !== undefined) command.actorSessionKey = actorSessionKey as SessionKey;
  if (payload !== undefined) command.payload = payload as Payload;
  if (dedupeKey !== undefined) command.dedupeKey = dedupeKey;
  if (occurredAtIso !== undefined) command.occurredAt = occurredAtIso;
  return command;
}
