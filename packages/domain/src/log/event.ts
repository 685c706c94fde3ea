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

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Fills `target` with the SessionEvent fields of `event`, in the public key order (built by assignment: a hot path). */
function assignSessionFields<T extends Mutable<SessionEvent>>(target: T, event: StoredEvent): T {
  target.sequence = event.sequence;
  target.kind = event.kind;
  target.actorType = event.actorType;
  if (event.actorSessionKey !== undefined) target.actorSessionKey = event.actorSessionKey;
  target.summary = event.summary;
  target.occurredAt = event.occurredAt;
  if (event.payload !== undefined) target.payload = event.payload;
  return target;
}

export function toSessionEvent(event: StoredEvent): SessionEvent {
  return assignSessionFields({} as Mutable<SessionEvent>, event);
}

export function toRecordedEvent(event: StoredEvent): RecordedEvent {
  // One literal per shape, in the public key order: the object is born with its fields in place
  // (one assigned to a one-field literal at a time would regrow its property store on the way).
  // It runs once per record.
  const { sessionKey, sequence, kind, actorType, actorSessionKey, summary, occurredAt, payload } = event;
  const recorded: Mutable<RecordedEvent> =
    actorSessionKey === undefined
      ? { sessionKey, sequence, kind, actorType, summary, occurredAt }
      : { sessionKey, sequence, kind, actorType, actorSessionKey, summary, occurredAt };
  if (payload !== undefined) recorded.payload = payload;
  return recorded;
}
