// The `record` input: its codec, the run_failed rule and the validated append command. The
// caller's object is read once, so a later mutation or a getter's second answer cannot reach the store.
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as t from 'io-ts';

import { ActorType, EventKind, RunOutcome } from './eventKind.js';
import { PayloadInput, type Payload } from './payload.js';
import { SessionKeyInput, type SessionKey } from './sessionKey.js';
import { Summary } from './summary.js';
import { decodeInput, invalidInput, refinement, type InvalidInput } from './validation.js';

export interface DedupeKeyBrand {
  readonly DedupeKey: unique symbol;
}
export type DedupeKey = t.Branded<string, DedupeKeyBrand>;
// Control characters, and an unpaired surrogate (which SQLite and PostgreSQL would store as
// U+FFFD, so two distinct keys would collide).
const DEDUPE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
export const DedupeKey = refinement<DedupeKey, string>(
  'a dedupe key of 1-512 characters without control characters or unpaired surrogates',
  (u): u is DedupeKey => typeof u === 'string' && u.length >= 1 && u.length <= 512 && !DEDUPE_FORBIDDEN.test(u),
);

// An ISO 8601 date or date-time as ECMAScript's Date.parse reads it reliably; anything else
// (e.g. "1", which V8 reads as 2001 in local time) is rejected.
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Epoch ms of an ISO string, or NaN: no offset reads as UTC, and a day that does not exist is rejected. */
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
    payload: PayloadInput,
    dedupeKey: DedupeKey,
    occurredAt: OccurredAt,
    onlyIfWatched: t.boolean,
  }),
]);

export type RecordFields = t.TypeOf<typeof RecordFields>;

/** The validated fields of an append, without its payload. */
export interface AppendCommandFields {
  readonly sessionKey: SessionKey;
  readonly kind: EventKind;
  readonly actorType: ActorType;
  readonly actorSessionKey?: SessionKey;
  readonly summary: Summary;
  readonly dedupeKey?: DedupeKey;
  readonly occurredAt?: string;
  readonly onlyIfWatched: boolean;
}

/** The validated payload's private copy and its JSON text, both or neither. */
export type CommandPayload =
  | { readonly payload: Payload; readonly payloadJson: string }
  | { readonly payload?: undefined; readonly payloadJson?: undefined };

/** A record input that passed every rule; `occurredAt` is still optional (the clock fills it). */
export type AppendCommand = AppendCommandFields & CommandPayload;

const RECORD_FIELDS = ['sessionKey', 'kind', 'actorType', 'actorSessionKey', 'summary', 'payload', 'dedupeKey', 'occurredAt', 'onlyIfWatched'] as const;

/** Rejects anything but a plain object holding only known fields. */
export function checkFields(value: unknown, field: string, known: readonly string[]): E.Either<InvalidInput, Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return E.left(invalidInput(field, value, 'an object'));
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      const unknownValue = (value as Record<string, unknown>)[key];
      return E.left(invalidInput(`${field}.${key}`, unknownValue, `no such field (known: ${known.join(', ')})`));
    }
  }
  return E.right(value as Record<string, unknown>);
}

/**
 * Each field read exactly once (a getter runs once, a Proxy's get trap once per field) into a
 * plain object; everything after checks this snapshot only (PayloadInput walks the payload once, into a copy).
 */
function readSnapshot(value: Record<string, unknown>): Record<string, unknown> {
  const snapshot: Record<string, unknown> = {};
  for (const key of RECORD_FIELDS) {
    const read = value[key];
    if (read !== undefined) snapshot[key] = read;
  }
  return snapshot;
}

/** Validates a `record` input into an AppendCommand, or the first problem found; the input's fields are read once. */
export function decodeRecordInput(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  return pipe(
    checkFields(value, field, RECORD_FIELDS),
    E.flatMap((fields) => decodeInput(RecordFields, readSnapshot(fields), field)),
    E.flatMap((fields): E.Either<InvalidInput, AppendCommand> => {
      // The outcome is read from the validated copy, not from the caller's object.
      const outcome: unknown = fields.payload?.value['outcome'];
      if (fields.kind === 'run_failed' && !RunOutcome.is(outcome)) {
        return E.left(invalidInput(`${field}.payload.outcome`, outcome, `${RunOutcome.name} for run_failed`));
      }
      const { sessionKey, kind, actorType, summary, actorSessionKey, payload, dedupeKey, occurredAt } = fields;
      const taken: CommandPayload = payload !== undefined ? { payload: payload.value, payloadJson: payload.json } : {};
      // Always built in this key order (one object shape).
      return E.right({
        sessionKey,
        kind,
        actorType,
        summary,
        onlyIfWatched: fields.onlyIfWatched ?? false,
        ...(actorSessionKey !== undefined ? { actorSessionKey } : {}),
        ...taken,
        ...(dedupeKey !== undefined ? { dedupeKey } : {}),
        ...(occurredAt !== undefined ? { occurredAt } : {}),
      });
    }),
  );
}
