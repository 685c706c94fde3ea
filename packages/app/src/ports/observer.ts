// The observer port (`options.observer`) as the facade calls it: a missing method does nothing,
// and a throw is logged once per method, so metrics never change an operation's result.
import type { AppendBatchObservation, AwarenessObserver, Logger, PruneRunObservation } from '@session-state/domain';

import { describeFailure } from '../errors/errors.js';

export interface Observe {
  appendBatch(observation: AppendBatchObservation): void;
  pruneRun(observation: PruneRunObservation): void;
}

export function createObserve(observer: AwarenessObserver | undefined, logger: Logger): Observe {
  const warned = new Set<keyof AwarenessObserver>();
  const call = <T>(method: keyof AwarenessObserver, observation: T): void => {
    const handler = observer?.[method] as ((observation: T) => void) | undefined;
    if (handler === undefined) return;
    try {
      handler.call(observer, observation);
    } catch (error) {
      if (warned.has(method)) return;
      warned.add(method);
      logger.warn({ operation: `observer.${method}`, error: describeFailure(error) }, 'observer threw; later throws of this method are not logged');
    }
  };
  return {
    appendBatch: (observation) => call('appendBatch', observation),
    pruneRun: (observation) => call('pruneRun', observation),
  };
}
