// How a store several gateway processes share tells each that cursors moved in another process;
// the listener re-reads the cursors it owns, so a lost signal costs latency, never a notice.
import type { SessionKey } from '../input/sessionKey.js';
import type { StoreError } from './stateStore.port.js';

export interface CursorSignalListener {
  /** Another handle's commit made cursors on these targets pending or removed them; `watchers`, when given, are the only ones concerned. */
  targetsChanged(targets: readonly SessionKey[], watchers?: readonly SessionKey[]): void;
  /** Signals may have been missed (also called once when listening starts): re-read every owned pending cursor. */
  resync(): void;
  /** The listening connection failed; it is retried. Identifiers only, never content. */
  failed(error: StoreError): void;
}

export interface CursorSignalSubscription {
  /** Stops listening and releases the connection; no callback runs after it resolves. */
  close(): Promise<void>;
}

/** Starts listening for commits made through another handle. */
export type ListenForCursorSignals = (listener: CursorSignalListener) => Promise<CursorSignalSubscription>;

/** Offered by stores that several processes share. */
export interface CursorSignalSource {
  readonly listen: ListenForCursorSignals;
}

export function isCursorSignalSource(store: object): store is CursorSignalSource {
  return typeof (store as Partial<CursorSignalSource>).listen === 'function';
}
