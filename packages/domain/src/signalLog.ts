// The per-session signal-log head: the state version that never decreases and the prune
// watermark that decides `historyGap`, both as a pure reducer.
import { maxSequence, type Sequence, ZERO } from './sequence';

// --- state -------------------------------------------------------------------------------

/** A session's durable head row; it survives pruning and deletion (the tombstone). */
export interface SignalLogHead {
  /** The highest sequence ever assigned to the session: its state version. */
  readonly head: Sequence;
  /** The highest sequence ever pruned or deleted from the session. */
  readonly pruneWatermark: Sequence;
}

export const initialHead: SignalLogHead = { head: ZERO, pruneWatermark: ZERO };

// --- events ------------------------------------------------------------------------------

export type SignalLogEvent =
  | { readonly type: 'appended'; readonly sequence: Sequence }
  | { readonly type: 'pruned'; readonly highestDeleted: Sequence }
  | { readonly type: 'deleted'; readonly highestDeleted: Sequence };

/** Appends raise the head, prunes and deletes raise the watermark; nothing ever lowers either. */
export function evolveHead(state: SignalLogHead, event: SignalLogEvent): SignalLogHead {
  switch (event.type) {
    // Object literals rather than spreads: `appended` runs once per append.
    case 'appended':
      return { head: maxSequence(state.head, event.sequence), pruneWatermark: state.pruneWatermark };
    case 'pruned':
    case 'deleted':
      return { head: state.head, pruneWatermark: maxSequence(state.pruneWatermark, event.highestDeleted) };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

// --- reads -------------------------------------------------------------------------------

/**
 * True exactly when events after `changesSince` may be missing because some were pruned or
 * deleted: `changesSince` is below the prune watermark. Asked at the watermark itself, the
 * reader has seen everything that was removed, so there is no gap. Never inferred from
 * sequence arithmetic (sequences need not be contiguous).
 */
export function historyGap(state: SignalLogHead, changesSince: Sequence): boolean {
  return changesSince < state.pruneWatermark;
}

/** The sequence a new event gets must exceed the head; a store with one global counter passes its next value. */
export function isValidNextSequence(state: SignalLogHead, next: Sequence): boolean {
  return next > state.head;
}
