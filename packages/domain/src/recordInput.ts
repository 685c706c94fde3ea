// The `record` input: its codec, the cross-field rules (run_failed outcome) and the validated
// append command the store receives.
import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import * as t from 'io-ts';

import { ActorType, EventKind, RunOutcome } from './eventKind';
import { Payload } from './payload';
import { SessionKey, SessionKeyInput } from './sessionKey';
import { Summary } from './summary';
import { decodeInput, describeValue, invalidInput, type InvalidInput } from './validation';

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

/** Validates a `record` input into an AppendCommand, or the first problem found. */
export function decodeRecordInput(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  return pipe(
    checkFields(value, field, RECORD_FIELDS),
    E.flatMap((fields) => decodeInput(RecordFields, fields, field)),
    E.flatMap((fields) => {
      if (fields.kind === 'run_failed') {
        const outcome: unknown = fields.payload?.['outcome'];
        if (!RunOutcome.is(outcome)) {
          return E.left(invalidInput(`${field}.payload.outcome`, outcome, `${RunOutcome.name} for run_failed`));
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
