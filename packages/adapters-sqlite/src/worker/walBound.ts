// The WAL's one bound and its checkpoints off the event loop: the store's connection runs with the
// auto-checkpoint off; at the bound every operation waits (the write gate) for a worker checkpoint.
// Public constants live here: its declarations import no drizzle or driver package types.
import type { SqliteClient } from '../driver/driver.js';

/** Frames (about pages) the WAL may hold before writes wait for a checkpoint: 16 MB at 4 KB pages. */
export const WAL_FRAMES_BEFORE_WAIT = 4000;

/** Pages a long write's batches add between two checkpoints started beside them. */
export const CHECKPOINT_AFTER_PAGES = 1000;

/** Frames not yet copied back that a pause in the writes checkpoints (SQLite's auto-checkpoint threshold). */
const IDLE_CHECKPOINT_FRAMES = 1000;

/** A pause in the writes this long (ms) is idle enough for a checkpoint. */
const IDLE_MS = 50;

/** Far below half the bound, the WAL's size is read once in this many commits. */
const SKIPPED_READS = 8;

/** What the schedules need of the worker (StoreWorker). */
export interface Checkpoints {
  checkpoint(): Promise<void>;
  /** False once checkpoints run on the store's own connection. */
  readonly usable: boolean;
}

/** Holds the store's operations while a worker batch holds the write lock, or the WAL waits for its checkpoint. */
export interface WriteGate {
  /** Runs `operation` now, or after what holds the gate settles. */
  run<T>(operation: () => T | Promise<T>): T | Promise<T>;
  /** Holds every operation until `batch` settles (fulfilled or rejected); returns it. */
  hold<T>(batch: Promise<T>): Promise<T>;
  idle(): Promise<void>;
}

/** A turn of the event loop of its own, so a held operation never shares the turn the group commit schedules next. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function createWriteGate(): WriteGate {
  let held: Promise<void> | undefined;
  return {
    run: (operation) => (held === undefined ? operation() : held.then(operation)),
    hold(batch) {
      const settled = batch.then(nextTurn, nextTurn);
      const next = held === undefined ? settled : held.then(() => settled);
      held = next;
      void next.then(() => {
        if (held === next) held = undefined;
      });
      return batch;
    },
    async idle() {
      while (held !== undefined) await held;
    },
  };
}

/** When the batches of a long write (prune, the restart scan) checkpoint. */
export interface WalSchedule {
  /** At once while the WAL is below its bound; at the bound, once every page written so far is checkpointed (then true). */
  ready(): Promise<boolean>;
  /** After a batch wrote about `pages` pages; `last` when the long write is done. */
  written(pages: number, last: boolean): void;
}

/**
 * Checkpoints every `afterPages` pages and after the last batch; batches wait only once the WAL holds `bound`
 * frames not all copied back, as `walSize` reads them, or (without it) once `bound` pages were written.
 */
export function createWalSchedule(checkpoints: Checkpoints, afterPages = CHECKPOINT_AFTER_PAGES, bound = WAL_FRAMES_BEFORE_WAIT, walSize?: () => WalSize): WalSchedule {
  let sinceCheckpoint = 0;
  let sinceWalStart = 0;
  let lastWritten = false;
  let checkpointing: Promise<void> | undefined;

  const start = (): Promise<void> => {
    sinceCheckpoint = 0;
    const running = checkpoints.checkpoint().then(() => {
      checkpointing = undefined;
      if (sinceCheckpoint >= afterPages || (lastWritten && sinceCheckpoint > 0)) void start();
    });
    checkpointing = running;
    return running;
  };

  return {
    async ready() {
      // Decided before the batch: a checkpoint that ends while a batch writes has not covered it. The WAL's
      // own size, where SQLite reads it, rather than the batches' page estimates, which run high.
      const size = walSize?.();
      const waits = size === undefined ? sinceWalStart >= bound : size.walFrames >= bound && size.walFrames > size.checkpointed;
      while (waits && (checkpointing !== undefined || sinceCheckpoint > 0)) await (checkpointing ?? start());
      if (checkpointing === undefined && sinceCheckpoint === 0) sinceWalStart = 0;
      return waits;
    },
    written(pages, last) {
      sinceCheckpoint += pages;
      sinceWalStart += pages;
      lastWritten = last;
      if (checkpointing !== undefined || sinceCheckpoint === 0) return;
      if (sinceCheckpoint >= afterPages || last) void start();
    },
  };
}

/** What `PRAGMA wal_checkpoint(NOOP)` reads: the WAL's frames and how many are copied back already. */
export type WalSize = { readonly walFrames: number; readonly checkpointed: number };

export interface CommitCheckpointOptions {
  readonly walSize: () => WalSize;
  readonly walFramesBeforeWait?: number;
  readonly idleCheckpointFrames?: number;
  readonly idleMs?: number;
  /** Called once if checkpoints fall back to the store's own connection: turn its auto-checkpoint back on. */
  readonly onFallback: () => void;
}

/** Everyday writes' checkpoints: at the bound (operations wait) or when writes pause; never beside a steady load. */
export function createCommitCheckpoints(checkpoints: Checkpoints, gate: WriteGate, options: CommitCheckpointOptions) {
  const { walSize, walFramesBeforeWait: bound = WAL_FRAMES_BEFORE_WAIT, idleCheckpointFrames = IDLE_CHECKPOINT_FRAMES, idleMs = IDLE_MS } = options;
  let lastCommitAt = 0;
  let commits = 0;
  /** The commit of the last read, the frames it saw, and the frames a commit added since the read before. */
  let readAt = 0;
  let lastFrames = 0;
  let perCommit = 0;
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  let done = false;

  /** After each checkpoint: a worker that could not run hands the WAL back to the auto-checkpoint. */
  const checked = (): void => {
    if (done || checkpoints.usable) return;
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
    if (uncopied(walSize()) >= idleCheckpointFrames) void checkpoints.checkpoint().then(checked);
  };

  return {
    /** After a write transaction committed on the store's connection. */
    committed(): void {
      if (done) return;
      lastCommitAt = performance.now();
      commits += 1;
      if (readAt > 0 && commits - readAt < SKIPPED_READS && lastFrames + SKIPPED_READS * perCommit < bound / 2) return;
      const size = walSize();
      // The first read has nothing to compare: a WAL left by an earlier process is not this store's writes.
      if (readAt > 0) perCommit = (size.walFrames < lastFrames ? size.walFrames : size.walFrames - lastFrames) / (commits - readAt);
      readAt = commits;
      lastFrames = size.walFrames;
      if (!holding && size.walFrames >= bound && uncopied(size) > 0) {
        holding = true;
        void gate.hold(checkpoints.checkpoint()).then(() => {
          holding = false;
          checked();
        });
        return;
      }
      if (timer === undefined && uncopied(size) >= idleCheckpointFrames) timer = setTimeout(idleCheck, idleMs).unref();
    },
    /** Starts no more checkpoints (the store is closing). */
    stop(): void {
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Reads the WAL's size on `client` (`PRAGMA wal_checkpoint(NOOP)`, which came with SQLite 3.51.0); undefined with an older SQLite. */
export function walSizeOn(client: SqliteClient): (() => WalSize) | undefined {
  const [major = 0, minor = 0] = String(client.prepare('SELECT sqlite_version() AS v').get()?.v).split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 51)) return undefined;
  const noop = client.prepareRaw('PRAGMA wal_checkpoint(NOOP)');
  return () => {
    const [, walFrames = 0, checkpointed = 0] = noop.get() as number[];
    return { walFrames, checkpointed };
  };
}

/** Turns the connection's auto-checkpoint off; returns what turns it back on as it was. */
function autoCheckpointOff(client: SqliteClient): () => void {
  const autocheckpoint = client.pragma('wal_autocheckpoint') as number;
  client.pragma('wal_autocheckpoint = 0');
  // PRAGMA takes no bound parameters; the value is the integer just read back.
  return () => void client.pragma(`wal_autocheckpoint = ${Math.trunc(autocheckpoint)}`);
}

/** Runs `work` (one write transaction) with the auto-checkpoint off, so its commit never copies the WAL back. */
export function withoutAutoCheckpoint<T>(client: SqliteClient, work: () => T): T {
  const restore = autoCheckpointOff(client);
  try {
    return work();
  } finally {
    restore();
  }
}

/** Turns the connection's auto-checkpoint off and schedules its checkpoints in the worker. */
export function offLoopCheckpoints(client: SqliteClient, checkpoints: Checkpoints, gate: WriteGate, walSize: () => WalSize) {
  const restore = autoCheckpointOff(client);
  return createCommitCheckpoints(checkpoints, gate, { walSize, onFallback: () => (client.open ? restore() : undefined) });
}
