// Reads an `events` row (a positional array) back as the domain's StoredEvent or SessionEvent,
// refusing a row that no longer decodes (a hand-edited database) so it is reported and skipped.
import { EVENT_KINDS, type Payload, type SessionEvent, type StoredEvent } from '@session-state/domain';

/** The column order of `eventColumns` (see statements.ts). */
export type EventValues = [
  sequence: number,
  sessionKey: string,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: unknown,
  dedupeKey: string | null,
  occurredAt: string,
  appendedAt: number,
];

const KINDS: ReadonlySet<string> = new Set<string>(EVENT_KINDS);
const ACTOR_TYPES: ReadonlySet<string> = new Set(['human', 'agent', 'system']);

/** A decoded event, or why the row is unusable (the reason names no stored content). */
export type DecodedEvent = { readonly ok: true; readonly event: StoredEvent } | { readonly ok: false; readonly reason: string };

/** The json column arrives parsed by the driver; only a plain object (or null) is a payload. */
function isPayload(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes EventValues starting at `offset` of `row` (joined selects put the head columns first). */
export function decodeEventValues(row: readonly unknown[], offset = 0): DecodedEvent {
  const kind = row[offset + 2] as string;
  if (!KINDS.has(kind)) return { ok: false, reason: 'unknown kind' };
  const actorType = row[offset + 3] as string;
  if (!ACTOR_TYPES.has(actorType)) return { ok: false, reason: 'unknown actor type' };
  const payload = row[offset + 6];
  if (payload !== null && !isPayload(payload)) return { ok: false, reason: 'payload is not a JSON object' };
  const actorSessionKey = row[offset + 4] as string | null;
  const dedupeKey = row[offset + 7] as string | null;
  const event: Record<string, unknown> = { sessionKey: row[offset + 1], sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 5];
  if (payload !== null) event['payload'] = payload;
  if (dedupeKey !== null) event['dedupeKey'] = dedupeKey;
  event['occurredAt'] = row[offset + 8];
  event['appendedAt'] = row[offset + 9];
  return { ok: true, event: event as unknown as StoredEvent };
}

/**
 * Decodes `sessionEventColumns` values starting at `offset` into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export function decodeSessionEventValues(row: readonly unknown[], offset = 0): SessionEvent | undefined {
  const kind = row[offset + 1] as string;
  const actorType = row[offset + 2] as string;
  if (!KINDS.has(kind) || !ACTOR_TYPES.has(actorType)) return undefined;
  const payload = row[offset + 5];
  if (payload !== null && !isPayload(payload)) return undefined;
  const actorSessionKey = row[offset + 3] as string | null;
  const event: Record<string, unknown> = { sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 4];
  event['occurredAt'] = row[offset + 6];
  if (payload !== null) event['payload'] = payload;
  return event as unknown as SessionEvent;
}
