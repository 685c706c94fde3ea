// The WAL checkpoints of everyday writes, off the event loop. SQLite's own auto-checkpoint runs
// inside the commit that takes the WAL past 1,000 frames: that commit copies the WAL back to the
// database file and fsyncs it on the event loop (10–25 ms on these machines' disks, once every
// ~100 one-record commits with a watcher per target: the slowest 1% of records, and the longest
// block of a steady write load). Instead, the store's connection runs with the auto-checkpoint off,
// and passive checkpoints run in the checkpointer's worker thread:
//
// - when a commit leaves the WAL at its bound or past it, not all copied back: the store's
//   operations wait (asynchronously, in the write gate) for that checkpoint, which copies
//   everything, so the next commit starts the WAL over. The bound is WAL_FRAMES_BEFORE_WAIT for
//   small write operations: one in several hundred waits (a one-record commit with a watcher per
//   target writes about 10 frames; an append of a batch counts its records). Operations so large
//   that fewer than LARGE_OPERATIONS_PER_BOUND fill it wait every cycle anyway, more often than
//   once in 100; for them the bound is WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS (an eighth: 500
//   frames), so each wait is short: bench 10d, a record on a target with 1,000 watchers, 183
//   frames, waited ~40 ms at 4,000 frames every 22 records, ~10 ms at 500 every third;
// - when the writes pause (IDLE_MS without a commit) with at least IDLE_CHECKPOINT_FRAMES frames
//   not yet copied back (SQLite's own threshold).
//
// Never beside a steady write load. A checkpoint is mostly the disk syncing the WAL, and beside
// commits that keep appending to it the sync chases them: a checkpoint of 2,000–3,000 frames took
// 80–190 ms beside bench 10d's commits against ~40 ms alone, and one-record commits that ran beside
// one were ~15% slower (bench 10a: with a checkpoint half way through every cycle, beside half of
// all commits, the median was 1.12–1.29× raw's on this machine). Beside writes that never pause a
// passive checkpoint never lets the WAL start over anyway (the first write after a complete
// checkpoint does, and there is always a newer frame). Commits read the WAL's size with
// `PRAGMA wal_checkpoint(NOOP)` (SQLite 3.51 and later; about 1 µs) on the store's connection, so
// a loop of awaited appends that never lets the event loop turn is held at the bound in time.
// A reader that keeps an old snapshot open can stop a checkpoint from copying everything: the wait
// still ends with that checkpoint, and the WAL grows as it would under the auto-checkpoint.
import type { Checkpointer } from './checkpointer.js';
import { LARGE_OPERATIONS_PER_BOUND, WAL_FRAMES_BEFORE_WAIT, WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS } from './walBound.js';
import type { WriteGate } from './writeGate.js';

/** What `PRAGMA wal_checkpoint(NOOP)` reads: the WAL's frames and how many are copied back already. */
export interface WalSize {
  readonly walFrames: number;
  readonly checkpointed: number;
}

/** Frames not yet copied back that a pause in the writes checkpoints (SQLite's auto-checkpoint threshold). */
export const IDLE_CHECKPOINT_FRAMES = 1000;

/** A pause in the writes this long (ms) is idle enough for a checkpoint beside them. */
export const IDLE_MS = 50;

/** With large write operations, operations wait once the WAL holds this share of its bound (WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS). */
const LARGE_COMMITS_SHARE = WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS / WAL_FRAMES_BEFORE_WAIT;

/**
 * While the WAL was below half its bound at the last read, and write operations were small, its
 * size is read once in this many commits: the WAL may pass the bound by the frames of as many
 * before operations wait.
 */
const SKIPPED_READS = 8;

export interface CommitCheckpoints {
  /** After a write transaction of `operations` write operations (the records of an append; 1 unless given) committed on the store's connection. */
  committed(operations?: number): void;
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
  /** Write operations committed, and how many there were at the last read. */
  let operations = 0;
  let operationsAtLastRead = 0;
  /** The WAL's frames at the last read. */
  let lastFrames = 0;
  /** Whether the write operations between the last two reads were large. */
  let large = false;
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

  /**
   * Reads the WAL's size after a commit, and whether the write operations since the last read were
   * large: what they added, or all the WAL holds if it started over since (the first read has
   * nothing to compare: a WAL left by an earlier process is not this store's writes).
   */
  const read = (): WalSize => {
    const size = walSize();
    const since = operations - operationsAtLastRead;
    const added = size.walFrames < lastFrames ? size.walFrames : size.walFrames - lastFrames;
    if (operationsAtLastRead > 0) large = added * LARGE_OPERATIONS_PER_BOUND > walFramesBeforeWait * since;
    operationsAtLastRead = operations;
    lastFrames = size.walFrames;
    return size;
  };

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
    committed(ofOperations = 1) {
      if (done) return;
      lastCommitAt = performance.now();
      commits += 1;
      operations += ofOperations;
      // Far below the bound with small writes, the size is read every SKIPPED_READS-th commit (a read is about 1 µs).
      if (!large && lastFrames < walFramesBeforeWait / 2 && (commits - 1) % SKIPPED_READS !== 0) return;
      const size = read();
      const bound = large ? walFramesBeforeWait * LARGE_COMMITS_SHARE : walFramesBeforeWait;
      if (!holding && size.walFrames >= bound && uncopied(size) > 0) {
        // Every operation waits for this checkpoint, which copies everything back; the next commit starts the WAL over.
        holding = true;
        void gate.hold(checkpointer.run()).then(() => {
          holding = false;
          checked();
        });
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
