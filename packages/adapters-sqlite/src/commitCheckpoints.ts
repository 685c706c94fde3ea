// The WAL checkpoints of everyday writes, off the event loop. SQLite's own auto-checkpoint runs
// inside the commit that takes the WAL past 1,000 frames: that commit copies the WAL back to the
// database file and fsyncs it on the event loop (about 10 ms on this machine's disk, once every
// ~100 one-record commits with a watcher per target: the slowest 1% of records, and the longest
// block of a steady write load). Instead, the store's connection runs with the auto-checkpoint
// off and a passive checkpoint runs in the checkpointer's worker thread after commits.
//
// A passive checkpoint beside continuous writes never lets the WAL start over (the first write
// after a complete checkpoint does, and there is always a newer frame), so once a checkpoint
// reports WAL_FRAMES_BEFORE_WAIT frames, the store's operations wait (asynchronously, in the write
// gate) for one more checkpoint, which then copies everything; the next commit starts the WAL
// over. A reader that keeps an old snapshot open can stop a checkpoint from copying everything:
// the wait still ends with that checkpoint, and the WAL grows as it would under the auto-checkpoint.
import type { Checkpointer, CheckpointReport } from './checkpointer';
import type { WriteGate } from './writeGate';

/**
 * Frames the WAL may hold before operations wait for a checkpoint to copy it all back: 16 MB at
 * 4 KB pages, plus what is written during one checkpoint.
 */
export const WAL_FRAMES_BEFORE_WAIT = 4000;

/**
 * At most one checkpoint starts in this long (ms), so a gateway that commits now and then does not
 * fsync the database file after every commit; under a steady load each checkpoint copies back
 * about this long's frames, and the one operations wait for copies no more than that.
 */
export const CHECKPOINT_INTERVAL_MS = 20;

/**
 * The first checkpoint waits for this many commits or this long (ms) after the first commit: a
 * short-lived process (one command of the command line) commits a few times and closes, and
 * closing the last connection checkpoints the WAL, so it never starts the worker thread.
 */
export const FIRST_CHECKPOINT_AFTER_COMMITS = 100;
export const FIRST_CHECKPOINT_AFTER_MS = 1000;

export interface CommitCheckpoints {
  /** After a write transaction committed on the store's connection. */
  committed(): void;
  /** Starts no more checkpoints (the store is closing). */
  stop(): void;
}

export interface CommitCheckpointOptions {
  readonly walFramesBeforeWait?: number;
  readonly intervalMs?: number;
  /** FIRST_CHECKPOINT_AFTER_COMMITS and FIRST_CHECKPOINT_AFTER_MS unless given. */
  readonly firstAfterCommits?: number;
  readonly firstAfterMs?: number;
  /** Called once if checkpoints fall back to the store's own connection: turn its auto-checkpoint back on. */
  readonly onFallback: () => void;
}

export function createCommitCheckpoints(checkpointer: Checkpointer, gate: WriteGate, options: CommitCheckpointOptions): CommitCheckpoints {
  const walFramesBeforeWait = options.walFramesBeforeWait ?? WAL_FRAMES_BEFORE_WAIT;
  const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
  const firstAfterCommits = options.firstAfterCommits ?? FIRST_CHECKPOINT_AFTER_COMMITS;
  const firstAfterMs = options.firstAfterMs ?? FIRST_CHECKPOINT_AFTER_MS;
  /** Commits before the first checkpoint, and when the first of them was. */
  let commitsBeforeFirst = 0;
  let firstCommitAt: number | undefined;
  /** Commits not yet covered by a started checkpoint. */
  let dirty = false;
  /** Operations are held for a checkpoint. */
  let holding = false;
  /** The last finished checkpoint whose report was looked at. */
  let seenRound = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let fellBack = false;
  let stopped = false;

  /**
   * Over the bound, and not everything copied back: a checkpoint copies the frames there were when
   * it started, so commits since then (`dirty`) are not. With everything copied, the next commit
   * starts the WAL over by itself.
   */
  const overBound = (report: CheckpointReport | undefined): boolean =>
    report !== undefined && report.walFrames >= walFramesBeforeWait && (dirty || report.checkpointed < report.walFrames);

  const startCheckpoint = (): Promise<CheckpointReport | undefined> => {
    dirty = false;
    lastStart = performance.now();
    return checkpointer.run();
  };

  // Called after every commit and when a checkpoint, a hold or the interval ends. It reads the
  // worker's progress from shared memory, so a loop of awaited appends that never yields to the
  // event loop still sees each checkpoint end (and is held at the bound) in time.
  const step = (): void => {
    if (fellBack || stopped) return;
    if (!checkpointer.offThread) {
      fellBack = true;
      options.onFallback();
      return;
    }
    if (holding) return;
    if (checkpointer.running()) {
      // A checkpoint a long write started: look again once the interval has passed.
      if (dirty) later(intervalMs);
      return;
    }
    const { round, report } = checkpointer.finished();
    if (round !== seenRound) {
      seenRound = round;
      if (overBound(report)) {
        // Every operation waits for one more checkpoint, which copies everything back.
        holding = true;
        void gate.hold(startCheckpoint()).then(() => {
          holding = false;
          seenRound = checkpointer.finished().round;
          step();
        });
        return;
      }
    }
    if (!dirty) return;
    const now = performance.now();
    if (lastStart === Number.NEGATIVE_INFINITY && commitsBeforeFirst < firstAfterCommits) {
      firstCommitAt ??= now;
      const first = firstCommitAt + firstAfterMs - now;
      if (first > 0) {
        later(first);
        return;
      }
    }
    const wait = lastStart + intervalMs - now;
    if (wait > 0) {
      later(wait);
      return;
    }
    void startCheckpoint().then(step);
  };

  const later = (ms: number): void => {
    timer ??= setTimeout(() => {
      timer = undefined;
      step();
    }, ms).unref();
  };

  return {
    committed() {
      dirty = true;
      if (lastStart === Number.NEGATIVE_INFINITY) commitsBeforeFirst += 1;
      step();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
