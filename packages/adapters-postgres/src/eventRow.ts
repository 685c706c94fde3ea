// The event decoders of this store (adapters-sql-common's storedRow.ts), made once when the
// adapter loads. The json payload column arrives parsed by the driver.
import { storedEventDecoders, type StoredEventDecoder, type StoredSessionEventDecoder } from '@session-state/adapters-sql-common';

const decoders = storedEventDecoders();

export const decodeEventValues: StoredEventDecoder = decoders.decodeEvent;
export const decodeSessionEventValues: StoredSessionEventDecoder = decoders.decodeSessionEvent;
