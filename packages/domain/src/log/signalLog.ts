// The per-session signal-log head and prune watermark, as a pure reducer.
import { maxSequence, type Sequence, ZERO } from './sequence.js';

/** A session's durable head row; it survives pruning and deletion (the tombstone). */
export interface SignalLogHead {
  /** The highest sequence ever assigned to the session: its state version. */
  readonly head: Sequence;
  /** The highest sequence ever pruned or deleted from the session. */
  readonly pruneWatermark: Sequence;
}

export const initialHead: SignalLogHead = { head: ZERO, pruneWatermark: ZERO };

export type SignalLogEvent =
  | { readonly type: 'appended'; readonly sequence: Sequence }
  | { readonly type: 'pruned'; readonly highestDeleted: Sequence }
  | { readonly type: 'deleted'; readonly highestDeleted: Sequence };

/** Appends raise the head, prunes and deletes raise the watermark; nothing ever lowers either. */
export function evolveHead(state: SignalLogHead, event: SignalLogEvent): SignalLogHead {
  if (event.type === 'appended') return { head: maxSequence(state.head, event.sequence), pruneWatermark: state.pruneWatermark };
  return { head: state.head, pruneWatermark: maxSequence(state.pruneWatermark, event.highestDeleted) };
}

/** What a store writes to a session's head row: nothing, a new row, or new values for the row it read. */
export type HeadWrite = { readonly type: 'none' } | { readonly type: 'insert' | 'update'; readonly head: SignalLogHead };

/** The head write after `events`, from the row read under the write lock; every store's head writes come from here. */
export function planHeadWrite(locked: SignalLogHead | undefined, events: readonly SignalLogEvent[]): HeadWrite {
  const before = locked ?? initialHead;
  const after = events.reduce(evolveHead, before);
  if (after.head === before.head && after.pruneWatermark === before.pruneWatermark) return { type: 'none' };
  return locked === undefined ? { type: 'insert', head: after } : { type: 'update', head: after };
}

/** True exactly when events after `changesSince` may be missing: it is below the prune watermark. */
export function historyGap(state: SignalLogHead, changesSince: Sequence): boolean {
  return changesSince < state.pruneWatermark;
}
