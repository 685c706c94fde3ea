// The operation lane: store calls and the queue updates that follow them run one at a time, in
// call order, so the notice queue follows the store's order and each call sees every earlier one.
import type { FailureFields, Failures } from '../errors/failures.js';

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `operation()`, a synchronous throw turned into a rejection. */
export function called<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return operation();
  } catch (error) {
    return Promise.reject(error);
  }
}

export type OperationLane = ReturnType<typeof createOperationLane>;

export function createOperationLane() {
  let tail: Promise<unknown> = Promise.resolve();
  // At zero the lane is idle and the next operation starts synchronously.
  let unsettled = 0;
  const settle = (): void => void (unsettled -= 1);
  return {
    /** Runs `operation` after every earlier one has settled (at once when the lane is idle). */
    run<T>(operation: () => Promise<T>): Promise<T> {
      const result = unsettled === 0 ? called(operation) : tail.then(operation);
      unsettled += 1;
      tail = result.then(settle, settle);
      return result;
    },
    /** Resolves once every operation queued so far has settled. */
    idle: (): Promise<void> => tail.then(() => undefined),
  };
}

/** The lane as the facade's methods enter it: appends still in the open batch go first. */
export type CallOrder = ReturnType<typeof createCallOrder>;

/** `flushAppends` hands the open group-commit batch to the lane. */
export function createCallOrder(lane: OperationLane, flushAppends: () => void, failures: Failures) {
  const enter = <T>(operation: () => Promise<T>): Promise<T> => {
    flushAppends();
    return lane.run(operation);
  };
  return {
    enter,
    /** A mutating store call, then `apply` (its queue update); a store failure rejects as a logged StoreOperationError. */
    mutate: <T>(operation: string, fields: FailureFields, call: () => Promise<T>, apply: (result: T) => void): Promise<T> =>
      enter(async () => {
        const result = await failures.storeCall(operation, call, fields);
        apply(result);
        return result;
      }),
  };
}
