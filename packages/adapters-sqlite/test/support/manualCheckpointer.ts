// Checkpoints that end when the test says so.
import type { Checkpoints } from '../../src/worker/walBound.js';

export interface ManualCheckpointer extends Checkpoints {
  /** Checkpoints started. */
  readonly runs: number;
  usable: boolean;
  /** Ends the running checkpoint, then lets the caller's continuation run. */
  finish(): Promise<void>;
}

export function manualCheckpointer(): ManualCheckpointer {
  let runs = 0;
  let end: (() => void) | undefined;
  let running: Promise<void> | undefined;
  return {
    get runs() {
      return runs;
    },
    usable: true,
    checkpoint() {
      if (running !== undefined) return running;
      runs += 1;
      running = new Promise<void>((resolve) => {
        end = () => {
          running = undefined;
          resolve();
        };
      });
      return running;
    },
    async finish() {
      end?.();
      end = undefined;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
