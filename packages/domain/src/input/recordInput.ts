// The `record` input: its codec, the run_failed rule and the validated append command. The
// caller's object is read once, so a later mutation or a getter's second answer cannot reach the store.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';

import { ActorType, EventKind, kindClass, RunOutcome } from './eventKind.js';
import { PayloadInput, type Payload } from './payload.js';
import { isAgentQualified, SessionKeyInput, type SessionKey } from './sessionKey.js';
import { Summary } from './summary.js';
import { decodeInput, invalidInput, refinement, strictType, type InvalidInput } from './validation.js';

export type DedupeKey = t.Branded<string, { readonly DedupeKey: unique symbol }>;
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

export const MAX_RECORD_WATCHERS = 16;
const SessionKeys = t.array(SessionKeyInput, `an array of at most ${MAX_RECORD_WATCHERS} session keys`);
const Watchers = new t.Type<SessionKey[], unknown, unknown>(SessionKeys.name, (u): u is SessionKey[] => SessionKeys.is(u) && u.length <= MAX_RECORD_WATCHERS, (u, c) => (Array.isArray(u) && u.length > MAX_RECORD_WATCHERS ? t.failure(u, c) : SessionKeys.validate(u, c)), t.identity);

const RecordFields = strictType(
  { sessionKey: SessionKeyInput, kind: EventKind, actorType: ActorType, summary: Summary },
  { actorSessionKey: SessionKeyInput, payload: PayloadInput, dedupeKey: DedupeKey, occurredAt: OccurredAt, onlyIfWatched: t.boolean, watchers: Watchers },
);

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
  /** The watchers the producer named that this event notifies (agent-qualified, not the target), each once: one without a cursor gets one. */
  readonly watchers?: readonly SessionKey[];
}

/** The validated payload's private copy and its JSON text, both or neither. */
export type CommandPayload =
  | { readonly payload: Payload; readonly payloadJson: string }
  | { readonly payload?: undefined; readonly payloadJson?: undefined };

/** A record input that passed every rule; `occurredAt` is still optional (the clock fills it). */
export type AppendCommand = AppendCommandFields & CommandPayload;

/**
 * Validates a `record` input into an AppendCommand, or the first problem found. One decode reads
 * each field once (a getter runs once, a Proxy's get trap once per field) and walks the payload
 * once, into a copy; everything after reads that copy only.
 */
export function decodeRecordInput(value: unknown, field = 'record'): E.Either<InvalidInput, AppendCommand> {
  const decoded = decodeInput(RecordFields, value, field);
  if (E.isLeft(decoded)) return decoded;
  const { sessionKey, kind, actorType, summary, actorSessionKey, payload, dedupeKey, occurredAt, onlyIfWatched } = decoded.right;
  const outcome: unknown = payload?.value['outcome'];
  if (kind === 'run_failed' && !RunOutcome.is(outcome)) return E.left(invalidInput(`${field}.payload.outcome`, outcome, `${RunOutcome.name} for run_failed`));
  const named = decoded.right.watchers;
  const notified = (key: SessionKey): boolean => key !== sessionKey && key !== actorSessionKey && isAgentQualified(key);
  const watchers = named !== undefined && kindClass(kind) === 'notify' ? [...new Set(named.filter(notified))] : [];
  // Always built in this key order (one object shape); a named watcher that takes part makes the session watched.
  const command: Record<string, unknown> = { sessionKey, kind, actorType, summary, onlyIfWatched: onlyIfWatched === true && watchers.length === 0 };
  if (actorSessionKey !== undefined) command['actorSessionKey'] = actorSessionKey;
  if (payload !== undefined) {
    command['payload'] = payload.value;
    command['payloadJson'] = payload.json;
  }
  if (dedupeKey !== undefined) command['dedupeKey'] = dedupeKey;
  if (occurredAt !== undefined) command['occurredAt'] = occurredAt;
  if (watchers.length > 0) command['watchers'] = watchers;
  return E.right(command as unknown as AppendCommand);
}

export const OCCURRED_AT_WINDOW_MS = 86_400_000;

export function clampOccurredAt(command: AppendCommand, now: number): AppendCommand {
  const at = command.occurredAt === undefined ? now : Date.parse(command.occurredAt);
  const clamped = Math.min(Math.max(at, now - OCCURRED_AT_WINDOW_MS), now);
  return clamped === at ? command : { ...command, occurredAt: new Date(clamped).toISOString() };
}
