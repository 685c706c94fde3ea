// The reconciliation answer: `status` with its optional `stateChanges` page.
import type { ChangesPage } from '../ports/stateStore.port.js';
import type { SessionEvent } from './event.js';
import type { Sequence } from './sequence.js';
import { historyGap } from './signalLog.js';

export interface StateChanges {
  readonly events: readonly SessionEvent[];
  readonly historyGap: boolean;
  /** The session's lowest retained sequence, whatever `changesSince` (0 when it retains none): where its history starts now. */
  readonly earliestRetained: number;
  readonly hasMore: boolean;
  readonly nextSince: number;
}

export interface SessionStatus {
  readonly sessionKey: string;
  readonly stateVersion: number;
  readonly stateChanges?: StateChanges;
}

/** Builds a page from a store's: `nextSince` is the last returned sequence, or `changesSince` when none. */
export function buildStateChanges({ head, events, hasMore, earliestRetained }: ChangesPage, changesSince: Sequence): StateChanges {
  const last = events[events.length - 1];
  return {
    events,
    historyGap: historyGap(head, changesSince),
    earliestRetained,
    hasMore,
    nextSince: last === undefined ? changesSince : last.sequence,
  };
}
