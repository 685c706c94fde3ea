// Decodes an `events` row (read as a positional array) into a StoredEvent, cheaply: the domain's
// checks (`decodeStoredEvent`) and one JSON.parse of a non-null payload, no io-ts on the hot read path.
import {
  decodeStoredEvent,
  decodeStoredSessionEvent,
  storedPayloadObject,
  type DecodedEvent,
  type Payload,
  type SessionEvent,
  type SessionEventValues as StoredSessionEventValues,
  type StoredEventValues,
} from '@session-state/domain';

/** The column order of every event select, so rows can be read as arrays (no key mapping). */
export type EventValues = StoredEventValues<string>;

/** The column order of the lean `status` select: the fields of a SessionEvent. */
export type SessionEventValues = StoredSessionEventValues<string>;

/** The payload column is JSON text; only a JSON object is a payload. */
function parsePayload(text: unknown): Payload | undefined {
  try {
    return storedPayloadObject(JSON.parse(text as string));
  } catch {
    return undefined;
  }
}

/** Decodes the row starting at `offset` of `row` (joined selects put other columns first). */
export function decodeEventValues(row: readonly unknown[], offset = 0): DecodedEvent {
  return decodeStoredEvent(row, offset, parsePayload);
}

/**
 * Decodes SessionEventValues starting at `offset` of `row` into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export function decodeSessionEventValues(row: readonly unknown[], offset = 0): SessionEvent | undefined {
  return decodeStoredSessionEvent(row, offset, parsePayload);
}
