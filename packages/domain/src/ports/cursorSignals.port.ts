// The cursor-signal port: how a store that several gateway processes share tells each of them
// that cursors on some targets moved in another process (PostgreSQL: LISTEN/NOTIFY). A signal
// carries target keys and, when it can, the watchers concerned; the listener re-reads the
// cursors it owns, so a lost or folded signal costs latency, never a notice.
import type { SessionKey } from '../input/sessionKey.js';
import type { StoreError } from './stateStore.port.js';

export interface CursorSignalListener {
  /**
   * A commit made through another store handle (usually another process; a handle's own
   * commits are not signalled to it, since its caller has their outcomes) changed cursors on
   * these targets in a way an owner must hear of: an append made one pending (a notice is asked
   * for where there was none), or a reset, a session delete or cursor expiry removed them (the
   * owner withdraws a notice it still queues for a removed pair). A further change on a cursor already pending is not
   * signalled: its owner was told when it became pending, and the resync covers a lost signal.
   * Called with each target at least once per such commit; repeats and folding are allowed.
   * `watchers`, when given, are the only watchers whose cursors on these targets changed: a
   * listener that owns none of them need not re-read.
   */
  targetsChanged(targets: readonly SessionKey[], watchers?: readonly SessionKey[]): void;
  /**
   * Signals may have been missed (the listening connection was lost and is back): every owned
   * pending cursor must be re-read. Also called once when listening starts.
   */
  resync(): void;
  /** The listening connection failed; it is retried. Identifiers only, never content. */
  failed(error: StoreError): void;
}

export interface CursorSignalSubscription {
  /** Stops listening and releases the connection; no callback runs after it resolves. */
  close(): Promise<void>;
}

/** Offered by stores that several processes share; see `StateStore.listen`. */
export type ListenForCursorSignals = (listener: CursorSignalListener) => Promise<CursorSignalSubscription>;
