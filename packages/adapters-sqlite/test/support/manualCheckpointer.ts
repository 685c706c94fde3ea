// A checkpointer whose checkpoints end when the test says so, with the report the test gives.
import type { Checkpointer, CheckpointReport, FinishedCheckpoint } from '../../src/checkpointer';

export interface ManualCheckpointer extends Checkpointer {
  /** Checkpoints started. */
  readonly runs: number;
  offThread: boolean;
  /** Ends the running checkpoint with `report`, then lets the caller's continuation run. */
  finish(report?: CheckpointReport): Promise<void>;
}

export function manualCheckpointer(): ManualCheckpointer {
  let runs = 0;
  let end: ((report: CheckpointReport | undefined) => void) | undefined;
  let running: Promise<CheckpointReport | undefined> | undefined;
  let finished: FinishedCheckpoint = { round: 0, report: undefined };
  return {
    get runs() {
      return runs;
    },
    offThread: true,
    running: () => running !== undefined,
    finished: () => finished,
    run() {
      if (running !== undefined) return running;
      runs += 1;
      const round = runs;
      running = new Promise<CheckpointReport | undefined>((resolve) => {
        end = (report) => {
          running = undefined;
          finished = { round, report };
          resolve(report);
        };
      });
      return running;
    },
    async finish(report) {
      end?.(report);
      end = undefined;
      await new Promise((resolve) => setImmediate(resolve));
    },
    close: () => Promise.resolve(),
  };
}
