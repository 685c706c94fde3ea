// The WAL's bound for everyday writes (commitCheckpoints.ts), in a module of its own: the package
// exports it, and public declarations may import nothing of drizzle or better-sqlite3.

/**
 * Frames the WAL may hold before operations wait for a checkpoint to copy it all back: 16 MB at
 * 4 KB pages, so a one-record commit with a watcher per target (about 10 frames) waits once in
 * about 400, not once in 100 as the auto-checkpoint's commit does.
 */
export const WAL_FRAMES_BEFORE_WAIT = 4000;

/**
 * Write operations are large when fewer than this many fill the WAL to WAL_FRAMES_BEFORE_WAIT (a
 * record on a target with a thousand watchers: ~180 frames): a wait at that bound every cycle would
 * then come more often than once in this many operations. An append of a batch counts each record
 * (a group commit of 256 small records writes ~170 frames, under one frame a record).
 */
export const LARGE_OPERATIONS_PER_BOUND = 100;

/**
 * With large write operations, operations wait once the WAL holds this many frames (an eighth of
 * WAL_FRAMES_BEFORE_WAIT, 2 MB at 4 KB pages), so each wait is short.
 */
export const WAL_FRAMES_BEFORE_WAIT_LARGE_OPERATIONS = WAL_FRAMES_BEFORE_WAIT / 8;
