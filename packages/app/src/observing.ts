// The observer port (`options.observer`) as the facade calls it: both methods always present (a
// missing one does nothing), and a throw is logged once per method and otherwise ignored, so
// metrics never change an operation's result.
import type { AppendBatchObservation, AwarenessObserver, Logger, PruneRunObservation } from '@session-state/domain';

import { describeFailure } from './storeOperationError.js';

/** The observer's methods, total and never throwing. */
export interface Observe {
  /** Whether an observer wants append batch timings: without one, the hot path takes no clock readings. */
  readonly timesAppendBatches: boolean;
  appendBatch(observation: AppendBatchObservation): void;
  pruneRun(observation: PruneRunObservation): void;
}

/** What the facade calls for `observer`; with none, both methods do nothing. */
export function createObserve(observer: AwarenessObserver | undefined, logger: Logger): Observe {
  const warned = new Set<keyof AwarenessObserver>();
  const call = <T>(method: keyof AwarenessObserver, observation: T): void => {
    const handler = observer?.[method] as ((observation: T) => void) | undefined;
    if (handler === undefined) return;
    try {
      handler.call(observer, observation);
    } catch (error) {
      // Once per method: an observer that throws on every append must not flood the log.
      if (warned.has(method)) return;
      warned.add(method);
      logger.warn({ operation: `observer.${method}`, error: describeFailure(error) }, 'observer threw; later throws of this method are not logged');
    }
  };
  return {
    timesAppendBatches: observer?.appendBatch !== undefined,
    appendBatch: (observation) => call('appendBatch', observation),
    pruneRun: (observation) => call('pruneRun', observation),
  };
}
