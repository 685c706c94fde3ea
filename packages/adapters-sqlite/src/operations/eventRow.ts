// The event decoders of this store (adapters-sql-common's storedRow.ts), made once when the
// adapter loads: the payload column is JSON text, parsed once per non-null payload; text that
// does not parse is no payload (the row is refused).
import { storedEventDecoders, type StoredEventDecoder, type StoredSessionEventDecoder } from '@session-state/adapters-sql-common';

function parseJsonText(text: unknown): unknown {
  try {
    return JSON.parse(text as string) as unknown;
  } catch {
    return undefined;
  }
}

const decoders = storedEventDecoders(parseJsonText);

export const decodeEventValues: StoredEventDecoder = decoders.decodeEvent;
export const decodeSessionEventValues: StoredSessionEventDecoder = decoders.decodeSessionEvent;
