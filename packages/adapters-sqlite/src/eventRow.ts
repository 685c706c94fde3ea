// Decodes an `events` row (read as a positional array) into a StoredEvent, cheaply: the domain's
// checks (`storedEventDecoders`) and one JSON.parse of a non-null payload, no io-ts on the hot read path.
import {
  storedEventDecoders,
  type SessionEventValues as StoredSessionEventValues,
  type StoredEventDecoder,
  type StoredEventValues,
  type StoredSessionEventDecoder,
} from '@session-state/domain';

/** The column order of every event select, so rows can be read as arrays (no key mapping). */
export type EventValues = StoredEventValues<string>;

/** The column order of the lean `status` select: the fields of a SessionEvent. */
export type SessionEventValues = StoredSessionEventValues<string>;

/** The payload column is JSON text; text that does not parse is no payload (the row is refused). */
function parseJsonText(text: unknown): unknown {
  try {
    return JSON.parse(text as string) as unknown;
  } catch {
    return undefined;
  }
}

const decoders = storedEventDecoders(parseJsonText);

/** Decodes the EventValues starting at `offset` of a row (joined selects put other columns first). */
export const decodeEventValues: StoredEventDecoder = decoders.decodeEvent;

/**
 * Decodes SessionEventValues starting at `offset` of a row into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a corrupt row.
 */
export const decodeSessionEventValues: StoredSessionEventDecoder = decoders.decodeSessionEvent;
