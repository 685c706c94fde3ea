// The operation lane: store calls and the queue updates that follow them run one at a time, in
// call order, so the notice queue always reflects the store's order of events and every
// operation sees the effect of every call made before it.

export interface OperationLane {
  /**
   * Runs `operation` after every earlier one has settled (at once when the lane is idle); its
   * result or rejection is returned.
   */
  run<T>(operation: () => Promise<T>): Promise<T>;
  /** Resolves once every operation queued so far has settled. */
  idle(): Promise<void>;
}

export function createOperationLane(): OperationLane {
  let tail: Promise<unknown> = Promise.resolve();
  // Operations started or queued and not yet settled. At zero the lane is idle and the next
  // operation starts synchronously, without waiting a turn of the microtask queue for `tail`.
  let unsettled = 0;
  const settle = (): void => {
    unsettled -= 1;
  };

  return {
    run<T>(operation: () => Promise<T>): Promise<T> {
      let result: Promise<T>;
      if (unsettled === 0) {
        try {
          result = operation();
        } catch (error) {
          result = Promise.reject(error);
        }
      } else {
        result = tail.then(operation);
      }
      unsettled += 1;
      // A failed operation must not stop the ones behind it.
      tail = result.then(settle, settle);
      return result;
    },
    idle() {
      return tail.then(noop);
    },
  };
}

function noop(): void {}
