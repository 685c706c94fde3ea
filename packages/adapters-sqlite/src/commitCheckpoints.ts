// The WAL checkpoints of everyday writes, off the event loop. SQLite's own auto-checkpoint runs
// inside the commit that takes the WAL past 1,000 frames: that commit copies the WAL back to the
// database file and fsyncs it on the event loop (about 10 ms on this machine's disk, once every
// ~100 one-record commits with a watcher per target: the slowest 1% of records, and the longest
// block of a steady write load). Instead, the store's connection runs with the auto-checkpoint off,
// and passive checkpoints run in the checkpointer's worker thread:
//
// - when a commit leaves WAL_FRAMES_BEFORE_WAIT frames or more, not all copied back: the store's
//   operations wait (asynchronously, in the write gate) for that checkpoint, which copies
//   everything, so the next commit starts the WAL over;
// - once a cycle of the WAL, half way to that bound, beside the writes, so the checkpoint waited
//   for has about half the WAL left;
// - when the writes pause (IDLE_MS without a commit) with at least IDLE_CHECKPOINT_FRAMES frames
//   not yet copied back (SQLite's own threshold).
//
// Not more often beside a steady write load: checkpoints running back to back beside the commits
// (a first version) cost the median one-record commit about 10% (bench 10a), and beside writes
// that never pause a passive checkpoint never lets the WAL start over anyway (the first write after
// a complete checkpoint does, and there is always a newer frame). Commits read the WAL's size with
// `PRAGMA wal_checkpoint(NOOP)` (SQLite 3.51 and later; about 1 µs) on the store's connection, so
// a loop of awaited appends that never lets the event loop turn is held at the bound in time.
// A reader that keeps an old snapshot open can stop a checkpoint from copying everything: the wait
// still ends with that checkpoint, and the WAL grows as it would under the auto-checkpoint.
import type { Checkpointer } from './checkpointer';
import { WAL_FRAMES_BEFORE_WAIT } from './walBound';
import type { WriteGate } from './writeGate';

/** What `PRAGMA wal_checkpoint(NOOP)` reads: the WAL's frames and how many are copied back already. */
export interface WalSize {
  readonly walFrames: number;
  readonly checkpointed: number;
}


/** Frames not yet copied back that a pause in the writes checkpoints (SQLite's auto-checkpoint threshold). */
export const IDLE_CHECKPOINT_FRAMES = 1000;

/** A pause in the writes this long (ms) is idle enough for a checkpoint beside them. */
export const IDLE_MS = 50;

/**
 * While the WAL was below half its bound at the last read, its size is read once in this many
 * commits: the WAL may pass the bound by the frames of as many commits before operations wait.
 */
const SKIPPED_READS = 8;

export interface CommitCheckpoints {
  /** After a write transaction committed on the store's connection. */
  committed(): void;
  /** Starts no more checkpoints (the store is closing). */
  stop(): void;
}

export interface CommitCheckpointOptions {
  /** Reads the WAL's size on the store's connection. */
  readonly walSize: () => WalSize;
  /** WAL_FRAMES_BEFORE_WAIT, IDLE_CHECKPOINT_FRAMES and IDLE_MS unless given. */
  readonly walFramesBeforeWait?: number;
  readonly idleCheckpointFrames?: number;
  readonly idleMs?: number;
  /** Called once if checkpoints fall back to the store's own connection: turn its auto-checkpoint back on. */
  readonly onFallback: () => void;
}

export function createCommitCheckpoints(checkpointer: Checkpointer, gate: WriteGate, options: CommitCheckpointOptions): CommitCheckpoints {
  const { walSize } = options;
  const walFramesBeforeWait = options.walFramesBeforeWait ?? WAL_FRAMES_BEFORE_WAIT;
  const idleCheckpointFrames = options.idleCheckpointFrames ?? IDLE_CHECKPOINT_FRAMES;
  const idleMs = options.idleMs ?? IDLE_MS;
  let lastCommitAt = 0;
  let commits = 0;
  /** The WAL's frames at the last read. */
  let lastFrames = 0;
  /** This cycle of the WAL (since it last started over) had its checkpoint half way to the bound. */
  let copiedAhead = false;
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  let done = false;

  /** After each checkpoint: a worker that could not run hands the WAL back to the auto-checkpoint. */
  const checked = (): void => {
    if (done || checkpointer.offThread) return;
    done = true;
    options.onFallback();
  };

  const uncopied = (size: WalSize): number => size.walFrames - size.checkpointed;

  const idleCheck = (): void => {
    timer = undefined;
    if (done || holding) return;
    const quiet = performance.now() - lastCommitAt;
    if (quiet < idleMs) {
      timer = setTimeout(idleCheck, idleMs - quiet).unref();
      return;
    }
    if (uncopied(walSize()) >= idleCheckpointFrames) void checkpointer.run().then(checked);
  };

  return {
    committed() {
      if (done) return;
      lastCommitAt = performance.now();
      // Far below the bound, the size is read every SKIPPED_READS-th commit (a read is about 1 µs).
      commits += 1;
      if (lastFrames < walFramesBeforeWait / 2 && (commits - 1) % SKIPPED_READS !== 0) return;
      const size = walSize();
      // The WAL started over since the last read: a new cycle, not yet copied ahead.
      if (size.walFrames < lastFrames) copiedAhead = false;
      lastFrames = size.walFrames;
      if (!holding && size.walFrames >= walFramesBeforeWait && uncopied(size) > 0) {
        // Every operation waits for this checkpoint, which copies everything back.
        holding = true;
        void gate.hold(checkpointer.run()).then(() => {
          holding = false;
          checked();
        });
        return;
      }
      if (!copiedAhead && size.walFrames >= walFramesBeforeWait / 2 && uncopied(size) > 0) {
        // Half way: one checkpoint beside the writes, so the one operations wait for at the bound
        // has about half the WAL left to sync and copy (bench 10d, 183 frames a commit: the wait
        // for a whole 4,000-frame WAL was ~40 ms, twice raw's in-commit checkpoint of 1,000).
        copiedAhead = true;
        void checkpointer.run().then(checked);
        return;
      }
      if (timer === undefined && uncopied(size) >= idleCheckpointFrames) timer = setTimeout(idleCheck, idleMs).unref();
    },
    stop() {
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
