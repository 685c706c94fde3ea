// Reads an `events` row (a positional array) back as the domain's StoredEvent or SessionEvent with
// the domain's checks (`storedEventDecoders`), refusing a row that no longer decodes (a hand-edited
// database) so it is reported and skipped. The json payload column arrives parsed by the driver.
import {
  storedEventDecoders,
  type StoredEventDecoder,
  type StoredEventValues,
  type StoredSessionEventDecoder,
} from '@session-state/domain';

/** The column order of `eventColumns` (see statements.ts). */
export type EventValues = StoredEventValues;

const decoders = storedEventDecoders();

/** Decodes EventValues starting at `offset` of a row (joined selects put the head columns first). */
export const decodeEventValues: StoredEventDecoder = decoders.decodeEvent;

/**
 * Decodes `sessionEventColumns` values starting at `offset` into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export const decodeSessionEventValues: StoredSessionEventDecoder = decoders.decodeSessionEvent;
