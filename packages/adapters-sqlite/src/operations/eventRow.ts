// The event decoders of this store: the payload column is JSON text; text that does not parse refuses the row.
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
