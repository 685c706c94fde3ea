// Reads an `events` row (a positional array) back as the domain's StoredEvent or SessionEvent with
// the domain's checks (`decodeStoredEvent`), refusing a row that no longer decodes (a hand-edited
// database) so it is reported and skipped. The json payload column arrives parsed by the driver.
import {
  decodeStoredEvent,
  decodeStoredSessionEvent,
  storedPayloadObject,
  type DecodedEvent,
  type SessionEvent,
  type StoredEventValues,
} from '@session-state/domain';

/** The column order of `eventColumns` (see statements.ts). */
export type EventValues = StoredEventValues;

/** Decodes EventValues starting at `offset` of `row` (joined selects put the head columns first). */
export function decodeEventValues(row: readonly unknown[], offset = 0): DecodedEvent {
  return decodeStoredEvent(row, offset, storedPayloadObject);
}

/**
 * Decodes `sessionEventColumns` values starting at `offset` into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export function decodeSessionEventValues(row: readonly unknown[], offset = 0): SessionEvent | undefined {
  return decodeStoredSessionEvent(row, offset, storedPayloadObject);
}
