// The stored signal-log event and its public shape (a `stateChanges.events` entry).
import type { ActorType, EventKind } from './eventKind';
import type { Payload } from './payload';
import type { DedupeKey } from './recordInput';
import type { Sequence } from './sequence';
import type { SessionKey } from './sessionKey';
import type { Summary } from './summary';

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

export function toSessionEvent(event: StoredEvent): SessionEvent {
  return {
    sequence: event.sequence,
    kind: event.kind,
    actorType: event.actorType,
    ...(event.actorSessionKey !== undefined ? { actorSessionKey: event.actorSessionKey } : {}),
    summary: event.summary,
    occurredAt: event.occurredAt,
    ...(event.payload !== undefined ? { payload: event.payload } : {}),
  };
}

export function toRecordedEvent(event: StoredEvent): RecordedEvent {
  return { sessionKey: event.sessionKey, ...toSessionEvent(event) };
}
