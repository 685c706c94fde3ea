// The `record` input: its codec, the cross-field rules (run_failed outcome) and the validated
// append command the store receives. The caller's object is read once: each field is taken into
// a snapshot, the payload into a private copy and its JSON text, and only what was checked is
// carried to the store (a later mutation or a getter's second answer cannot reach it).
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as t from 'io-ts';

import { ActorType, EventKind, RunOutcome } from './eventKind.js';
import { PayloadInput, payloadTakeResult, takePayload, type Payload, type PayloadTake, type TakenPayload } from './payload.js';
import { isSessionKey, SessionKey, SessionKeyInput } from './sessionKey.js';
import { normaliseSummary, Summary, SUMMARY_MAX_LENGTH } from './summary.js';
import { decodeInput, invalidInput, type InvalidInput } from './validation.js';

// --- field codecs ------------------------------------------------------------------------

export interface DedupeKeyBrand {
  readonly DedupeKey: unique symbol;
}
export type DedupeKey = t.Branded<string, DedupeKeyBrand>;
// Control characters, and an unpaired surrogate (which SQLite and PostgreSQL would store as
// U+FFFD, so two distinct keys would collide).
const DEDUPE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
export const isDedupeKey = (u: unknown): u is DedupeKey =>
  typeof u === 'string' && u.length >= 1 && u.length <= 512 && !DEDUPE_FORBIDDEN.test(u);
export const DedupeKey = new t.Type<DedupeKey, string, unknown>(
  'a dedupe key of 1-512 characters without control characters or unpaired surrogates',
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

/**
 * The payload field of a record snapshot: the caller's payload was already taken (walked once)
 * by snapshotRecord, so both the fast path and the codecs use that one reading.
 */
const TakenPayloadField: t.Type<TakenPayload, TakenPayload, unknown> = new t.Type<TakenPayload, TakenPayload, unknown>(
  PayloadInput.name,
  PayloadInput.is,
  (u, c) => (u === undefined ? t.failure(u, c) : payloadTakeResult(u as PayloadTake, c)),
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
    payload: TakenPayloadField,
    dedupeKey: DedupeKey,
    occurredAt: OccurredAt,
    onlyIfWatched: t.boolean,
  }),
]);

export type RecordFields = t.TypeOf<typeof RecordFields>;

// --- the validated command ---------------------------------------------------------------

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

/**
 * The payload as it was validated: a private copy and its JSON text, which a store keeping
 * JSON text writes as is (no second serialisation). Both or neither.
 */
export type CommandPayload =
  | { readonly payload: Payload; readonly payloadJson: string }
  | { readonly payload?: undefined; readonly payloadJson?: undefined };

/** A record input that passed every rule; `occurredAt` is still optional (the clock fills it). */
export type AppendCommand = AppendCommandFields & CommandPayload;

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
  const problem = fieldsProblem(value, field, known);
  return problem === undefined ? E.right(value as Record<string, unknown>) : E.left(problem);
}

/** checkFields' answer without the Either (the record hot path builds no wrapper for a valid input). */
function fieldsProblem(value: unknown, field: string, known: readonly string[]): InvalidInput | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalidInput(field, value, 'an object');
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      const unknownValue = (value as Record<string, unknown>)[key];
      return invalidInput(`${field}.${key}`, unknownValue, `no such field (known: ${known.join(', ')})`);
    }
  }
  return undefined;
}

/** The record's fields as read once; `payload`, when given, is already taken (see takePayload). */
type RecordSnapshot = Partial<Record<Exclude<(typeof RECORD_FIELDS)[number], 'payload'>, unknown>> & { readonly payload?: PayloadTake };

/**
 * The record's fields, each read exactly once (a getter runs once, a Proxy's get trap once per
 * field) into a plain object, and the payload walked once (takePayload); everything after checks
 * and carries this snapshot only. Absent and undefined fields are left out.
 */
function snapshotRecord(value: unknown, field: string): E.Either<InvalidInput, RecordSnapshot> {
  const problem = fieldsProblem(value, field, RECORD_FIELDS);
  return problem === undefined ? E.right(readSnapshot(value as Record<string, unknown>)) : E.left(problem);
}

/** snapshotRecord's reading of a value fieldsProblem accepted. */
function readSnapshot(value: Record<string, unknown>): RecordSnapshot {
  // One read per field, by name (a loop over RECORD_FIELDS would be a keyed read: slower on the hot path).
  const { sessionKey, kind, actorType, actorSessionKey, summary, payload, dedupeKey, occurredAt, onlyIfWatched } = value;
  const snapshot: { -readonly [K in keyof RecordSnapshot]: RecordSnapshot[K] } = { sessionKey, kind, actorType, summary };
  if (actorSessionKey !== undefined) snapshot.actorSessionKey = actorSessionKey;
  if (payload !== undefined) snapshot.payload = takePayload(payload);
  if (dedupeKey !== undefined) snapshot.dedupeKey = dedupeKey;
  if (occurredAt !== undefined) snapshot.occurredAt = occurredAt;
  if (onlyIfWatched !== undefined) snapshot.onlyIfWatched = onlyIfWatched;
  return snapshot;
}

/**
 * Validates a `record` input into an AppendCommand, or the first problem found. The input's
 * fields are read once (see snapshotRecord); the common valid input is then checked by hand
 * (plain typeof and set checks, no io-ts, no fp-ts pipe), and anything the fast check does not
 * accept goes through the codecs, which give the same answer for valid input and word every
 * rejection.
 */
export function decodeRecordInput(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  // As snapshotRecord, without its Either: this runs once per record.
  const problem = fieldsProblem(value, field, RECORD_FIELDS);
  if (problem !== undefined) return E.left(problem);
  const snapshot = readSnapshot(value as Record<string, unknown>);
  const command = fastRecordInput(snapshot);
  return command !== undefined ? E.right(command) : decodeSnapshotByCodecs(snapshot, field);
}

/** The codec path of `decodeRecordInput`: the reference for its results and the source of its errors. */
export function decodeRecordInputByCodecs(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  return pipe(
    snapshotRecord(value, field),
    E.flatMap((snapshot) => decodeSnapshotByCodecs(snapshot, field)),
  );
}

function decodeSnapshotByCodecs(snapshot: RecordSnapshot, field: string): E.Either<InvalidInput, AppendCommand> {
  return pipe(
    decodeInput(RecordFields, snapshot, field),
    E.flatMap((fields) => {
      // The outcome is read from the validated copy, not from the caller's object.
      if (fields.kind === 'run_failed') {
        const outcome: unknown = fields.payload?.value['outcome'];
        if (!RunOutcome.is(outcome)) {
          return E.left(invalidInput(`${field}.payload.outcome`, outcome, `${RunOutcome.name} for run_failed`));
        }
      }
      const payload: CommandPayload = fields.payload !== undefined ? { payload: fields.payload.value, payloadJson: fields.payload.json } : {};
      const command: AppendCommand = {
        sessionKey: fields.sessionKey,
        kind: fields.kind,
        actorType: fields.actorType,
        summary: fields.summary,
        onlyIfWatched: fields.onlyIfWatched ?? false,
        ...(fields.actorSessionKey !== undefined ? { actorSessionKey: fields.actorSessionKey } : {}),
        ...payload,
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
// What normaliseSummary would change besides the length cap: control runs, line separators and
// unpaired surrogates.
const NEEDS_NORMALISING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cs}]/u;

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

/**
 * The AppendCommand the codec path would return for the snapshot, or undefined when a field is
 * not valid (the codec path then decides and words the error).
 */
function fastRecordInput(input: RecordSnapshot): AppendCommand | undefined {
  const sessionKey = sessionKeyOf(input.sessionKey);
  const { kind, actorType } = input;
  if (sessionKey === undefined || !KINDS.has(kind) || !ACTOR_TYPES.has(actorType)) return undefined;
  const summary = summaryOf(input.summary);
  if (summary === undefined) return undefined;

  const { actorSessionKey, payload, dedupeKey, occurredAt, onlyIfWatched } = input;
  if (actorSessionKey !== undefined && sessionKeyOf(actorSessionKey) === undefined) return undefined;
  const taken = payload;
  if (taken !== undefined && !taken.ok) return undefined;
  if (dedupeKey !== undefined && !isDedupeKey(dedupeKey)) return undefined;
  if (onlyIfWatched !== undefined && typeof onlyIfWatched !== 'boolean') return undefined;
  let occurredAtIso: string | undefined;
  if (occurredAt !== undefined) {
    const decoded = OccurredAt.decode(occurredAt);
    if (E.isLeft(decoded)) return undefined;
    occurredAtIso = decoded.right;
  }
  if (kind === 'run_failed' && !(taken?.ok === true && RUN_OUTCOMES.has(taken.payload.value['outcome']))) return undefined;

  // The codec path's key order, by assignment (no spreads on the hot path).
  const command: { -readonly [K in keyof AppendCommandFields]: AppendCommandFields[K] } & { payload?: Payload; payloadJson?: string } = {
    sessionKey,
    kind: kind as EventKind,
    actorType: actorType as ActorType,
    summary,
    onlyIfWatched: onlyIfWatched ?? false,
  };
  if (actorSessionKey !== undefined) command.actorSessionKey = actorSessionKey as SessionKey;
  if (taken?.ok === true) {
    command.payload = taken.payload.value;
    command.payloadJson = taken.payload.json;
  }
  if (dedupeKey !== undefined) command.dedupeKey = dedupeKey;
  if (occurredAtIso !== undefined) command.occurredAt = occurredAtIso;
  return command as AppendCommand;
}
