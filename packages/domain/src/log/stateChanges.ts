// The reconciliation answer: `status` with its optional `stateChanges` page.
import type { SessionEvent } from './event.js';
import type { Sequence } from './sequence.js';
import { historyGap, type SignalLogHead } from './signalLog.js';

export interface StateChanges {
  readonly events: readonly SessionEvent[];
  readonly historyGap: boolean;
  readonly hasMore: boolean;
  readonly nextSince: number;
}

export interface SessionStatus {
  readonly sessionKey: string;
  readonly stateVersion: number;
  readonly stateChanges?: StateChanges;
}

/** Builds a page: `nextSince` is the last returned sequence, or `changesSince` when none. */
export function buildStateChanges(
  head: SignalLogHead,
  changesSince: Sequence,
  events: readonly SessionEvent[],
  hasMore: boolean,
): StateChanges {
  const last = events[events.length - 1];
  return {
    events,
    historyGap: historyGap(head, changesSince),
    hasMore,
    nextSince: last === undefined ? changesSince : last.sequence,
  };
}
