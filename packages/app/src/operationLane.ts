// The operation lane: mutating store calls and the queue updates that follow them run one at a
// time, in call order, so the notice queue always reflects the store's order of events.

export interface OperationLane {
  /** Runs `operation` after every earlier one has settled; its result or rejection is returned. */
  run<T>(operation: () => Promise<T>): Promise<T>;
  /** Resolves once every operation queued so far has settled. */
  idle(): Promise<void>;
}

export function createOperationLane(): OperationLane {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(operation: () => Promise<T>): Promise<T> {
      const result = tail.then(operation);
      // A failed operation must not stop the ones behind it.
      tail = result.then(noop, noop);
      return result;
    },
    idle() {
      return tail.then(noop);
    },
  };
}

function noop(): void {}
