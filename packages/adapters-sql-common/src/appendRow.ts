// The append's rows both adapters read and write the same way: an event insert's named values,
// and the duplicate outcome of a dedupe key that is taken (with the corrupt-row policy for it).
import type { AppendOutcome, AppendRequest, CorruptRowSink } from '@session-state/domain';

import type { StoredEventDecoder } from './storedRow.js';

/** The named values of an event insert. */
export interface EventParams {
  readonly sessionKey: string;
  readonly kind: string;
  readonly actorType: string;
  readonly actorSessionKey: string | null;
  readonly summary: string;
  readonly payload: string | null;
  readonly dedupeKey: string | null;
  readonly occurredAt: string;
  readonly appendedAt: number;
}

/** The request's event as the values of its insert; its `occurredAt` is handed to planAppend, so the default is built once. */
export function eventParams({ command, appendedAt }: AppendRequest): EventParams {
  return {
    sessionKey: command.sessionKey,
    kind: command.kind,
    actorType: command.actorType,
    actorSessionKey: command.actorSessionKey ?? null,
    summary: command.summary,
    // The JSON text taken when the input was validated: exactly what was checked, not serialised again.
    payload: command.payloadJson ?? null,
    dedupeKey: command.dedupeKey ?? null,
    occurredAt: command.occurredAt ?? new Date(appendedAt).toISOString(),
    appendedAt,
  };
}

/**
 * The `duplicate` outcome for the stored event holding a request's dedupe key (StoredEventValues).
 * A corrupt one is reported and the request fails (thrown, so it fails alone): answering with
 * a damaged event, or appending a second event under the key, would both be wrong.
 */
export function duplicateOutcome(sink: CorruptRowSink, existing: readonly unknown[], decode: StoredEventDecoder): AppendOutcome {
  const decoded = decode(existing);
  if (!decoded.ok) {
    sink.onCorruptRow({ operation: 'append', table: 'events', sequence: existing[0] as number, reason: decoded.reason });
    throw new Error(`the stored event holding this dedupe key is corrupt (${decoded.reason})`);
  }
  return { type: 'duplicate', event: decoded.event };
}
