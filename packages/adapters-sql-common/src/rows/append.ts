// An append's rows (insert values, the duplicate of a taken dedupe key) and a request's own failure carried out of its transaction.
import { storeError, type AppendOutcome, type AppendRequest, type CorruptRowSink } from '@session-state/domain';

import type { StoredEventDecoder } from './storedRow.js';

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

/** The request's event as the values of its insert (the `occurredAt` default built once, for planAppend too). */
export function eventParams({ command, appendedAt }: AppendRequest): EventParams {
  return {
    sessionKey: command.sessionKey,
    kind: command.kind,
    actorType: command.actorType,
    actorSessionKey: command.actorSessionKey ?? null,
    summary: command.summary,
    // The JSON text that was validated, not serialised again.
    payload: command.payloadJson ?? null,
    dedupeKey: command.dedupeKey ?? null,
    occurredAt: command.occurredAt ?? new Date(appendedAt).toISOString(),
    appendedAt,
  };
}

/** The `duplicate` outcome for the stored event holding the dedupe key; a corrupt one is reported and the request fails alone. */
export function duplicateOutcome(sink: CorruptRowSink, existing: readonly unknown[], decode: StoredEventDecoder): AppendOutcome {
  const decoded = decode(existing);
  if (!decoded.ok) {
    sink.onCorruptRow({ operation: 'append', table: 'events', sequence: existing[0] as number, reason: decoded.reason });
    throw new Error(`the stored event holding this dedupe key is corrupt (${decoded.reason})`);
  }
  return { type: 'duplicate', event: decoded.event };
}

/** Carries the error of a request out of its transaction, so the transaction rolls back. */
export class RequestFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the request failed');
  }
}

/** The outcome of a request that failed alone: a tagged StoreError naming `append`. */
export function failedOutcome(error: unknown): AppendOutcome {
  return { type: 'failed', error: storeError('append', error instanceof RequestFailed ? error.failure : error) };
}
