// The stored signal-log event and its public shape (a `stateChanges.events` entry).
import type { ActorType, EventKind } from '../input/eventKind.js';
import type { Payload } from '../input/payload.js';
import type { DedupeKey } from '../input/recordInput.js';
import type { Sequence } from './sequence.js';
import type { SessionKey } from '../input/sessionKey.js';
import type { Summary } from '../input/summary.js';

/** An event as the store keeps it. `appendedAt` (clock ms) drives retention. */
export interface StoredEvent {
  readonly sessionKey: SessionKey;
  readonly sequence: Sequence;
  readonly kind: EventKind;
  readonly actorType: ActorType;
  readonly actorSessionKey?: SessionKey;
  readonly summary: Summary;
  readonly payload?: Payload;
  readonly dedupeKey?: DedupeKey;
  readonly occurredAt: string;
  readonly appendedAt: number;
}

/** One entry of `stateChanges.events`: `payload` and `actorSessionKey` only when present. */
export interface SessionEvent {
  readonly sequence: number;
  readonly kind: EventKind;
  readonly actorType: ActorType;
  readonly actorSessionKey?: string;
  readonly summary: string;
  readonly occurredAt: string;
  readonly payload?: Payload;
}

/** The event returned by `record` and `childSpawned`: a SessionEvent plus its session key. */
export interface RecordedEvent extends SessionEvent {
  readonly sessionKey: string;
}

/** The public fields of `event` in key order (its session key first when `withKey`), built by assignment: no spread, no copy. */
function publicEvent(event: StoredEvent, withKey: boolean): Record<string, unknown> {
  const { sequence, kind, actorType, actorSessionKey, summary, occurredAt, payload } = event;
  const shown: Record<string, unknown> = withKey ? { sessionKey: event.sessionKey, sequence, kind, actorType } : { sequence, kind, actorType };
  if (actorSessionKey !== undefined) shown['actorSessionKey'] = actorSessionKey;
  shown['summary'] = summary;
  shown['occurredAt'] = occurredAt;
  if (payload !== undefined) shown['payload'] = payload;
  return shown;
}

export const toSessionEvent = (event: StoredEvent): SessionEvent => publicEvent(event, false) as unknown as SessionEvent;

export const toRecordedEvent = (event: StoredEvent): RecordedEvent => publicEvent(event, true) as unknown as RecordedEvent;
