// Call order across the facade: every store call and the queue update that follows it run in
// the operation lane, and appends still waiting in the open group-commit batch enter the lane
// first, so every operation applies in the order it was called (a record fired before a delete,
// a reset or a watch is applied before it) and sees the effect of every call made before it.
import type { FailureFields, Failures } from './failures.js';
import type { OperationLane } from './operationLane.js';

export interface CallOrder {
  /** Enters the lane behind every operation called before this one, appends included. */
  enter<T>(operation: () => Promise<T>): Promise<T>;
  /**
   * Runs a mutating store call and then `apply` (its queue update) in the lane; a store failure
   * rejects as a logged StoreOperationError of `operation`.
   */
  mutate<T>(operation: string, fields: FailureFields, call: () => Promise<T>, apply: (result: T) => void): Promise<T>;
}

/** `flushAppends` hands the open group-commit batch to the lane (AppendPipeline.flushNow). */
export function createCallOrder(lane: OperationLane, flushAppends: () => void, failures: Failures): CallOrder {
  const enter = <T>(operation: () => Promise<T>): Promise<T> => {
    flushAppends();
    return lane.run(operation);
  };
  const mutate = <T>(operation: string, fields: FailureFields, call: () => Promise<T>, apply: (result: T) => void): Promise<T> =>
    enter(async () => {
      let result: T;
      try {
        result = await call();
      } catch (error) {
        throw failures.store(operation, error, fields);
      }
      apply(result);
      return result;
    });
  return { enter, mutate };
}
