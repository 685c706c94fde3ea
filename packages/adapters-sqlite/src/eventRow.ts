// Decodes an `events` row (read as a positional array) into a StoredEvent, cheaply: plain
// checks and one JSON.parse of a non-null payload, no io-ts on the hot read path.
import { EVENT_KINDS, type Payload, type SessionEvent, type StoredEvent } from '@session-state/domain';

/** The column order of every event select, so rows can be read as arrays (no key mapping). */
export type EventValues = [
  sequence: number,
  sessionKey: string,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: string | null,
  dedupeKey: string | null,
  occurredAt: string,
  appendedAt: number,
];

/** The column order of the lean `status` select: the fields of a SessionEvent. */
export type SessionEventValues = [
  sequence: number,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: string | null,
  occurredAt: string,
];

const KINDS: ReadonlySet<string> = new Set<string>(EVENT_KINDS);
const ACTOR_TYPES: ReadonlySet<string> = new Set(['human', 'agent', 'system']);

/** A decoded event, or why the row is unusable (the reason names no stored content). */
export type DecodedEvent = { readonly ok: true; readonly event: StoredEvent } | { readonly ok: false; readonly reason: string };

function parsePayload(text: string): Payload | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return value as Payload;
  } catch {
    return undefined;
  }
}

/** Decodes the row starting at `offset` of `row` (joined selects put other columns first). */
export function decodeEventValues(row: readonly unknown[], offset = 0): DecodedEvent {
  const sequence = row[offset] as number;
  const kind = row[offset + 2] as string;
  if (!KINDS.has(kind)) return { ok: false, reason: 'unknown kind' };
  const actorType = row[offset + 3] as string;
  if (!ACTOR_TYPES.has(actorType)) return { ok: false, reason: 'unknown actor type' };
  const actorSessionKey = row[offset + 4] as string | null;
  const payloadText = row[offset + 6] as string | null;
  const dedupeKey = row[offset + 7] as string | null;
  let payload: Payload | undefined;
  if (payloadText !== null) {
    payload = parsePayload(payloadText);
    if (payload === undefined) return { ok: false, reason: 'payload is not a JSON object' };
  }
  // Built by assignment, not spreads, to keep the hot path allocation-light. The branded types
  // are trusted: every row was validated by the domain before it was inserted.
  const event: Record<string, unknown> = { sessionKey: row[offset + 1], sequence, kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 5];
  if (payload !== undefined) event['payload'] = payload;
  if (dedupeKey !== null) event['dedupeKey'] = dedupeKey;
  event['occurredAt'] = row[offset + 8];
  event['appendedAt'] = row[offset + 9];
  return { ok: true, event: event as unknown as StoredEvent };
}

/**
 * Decodes SessionEventValues starting at `offset` of `row` into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export function decodeSessionEventValues(row: readonly unknown[], offset = 0): SessionEvent | undefined {
  const kind = row[offset + 1] as string;
  const actorType = row[offset + 2] as string;
  if (!KINDS.has(kind) || !ACTOR_TYPES.has(actorType)) return undefined;
  const actorSessionKey = row[offset + 3] as string | null;
  const payloadText = row[offset + 5] as string | null;
  let payload: Payload | undefined;
  if (payloadText !== null) {
    payload = parsePayload(payloadText);
    if (payload === undefined) return undefined;
  }
  const event: Record<string, unknown> = { sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 4];
  event['occurredAt'] = row[offset + 6];
  if (payload !== undefined) event['payload'] = payload;
  return event as unknown as SessionEvent;
}
