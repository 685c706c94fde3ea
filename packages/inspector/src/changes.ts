// Where the inspector hears that the store changed, so the page updates without a reload: a SQLite
// file is polled (two stat calls of the file and its -wal; no query, nothing opened or written),
// a PostgreSQL store through its LISTEN signals with a slow refresh as the safety net (its signals
// cover appends that ask for notices and cursor removals, not drains, log-only appends or prunes).
import fs from 'node:fs';

import { isCursorSignalSource, type StateStore } from '@session-state/domain';

/** Stops a change source; nothing is reported after it resolves. */
export interface ChangeSubscription {
  close(): Promise<void>;
}

/**
 * Calls `changed` (possibly more than once per commit; the inspector re-reads and compares) when
 * the store may have changed, until the returned subscription is closed.
 */
export type ChangeSource = (changed: () => void) => Promise<ChangeSubscription>;

/** How often a SQLite file is checked, in milliseconds. */
const FILE_POLL_MS = 250;
/** How often a PostgreSQL store is re-read when no signal came, in milliseconds. */
const SIGNAL_FALLBACK_MS = 2000;

/** Identity, size and change time of `file`, or `none` when it does not exist. */
function statToken(file: string): string {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat === undefined ? 'none' : `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/**
 * The token of a SQLite state file: a commit grows or rewrites its -wal, a checkpoint or a
 * writer without WAL rewrites the file itself. The -shm is left out: readers update it too.
 */
export function sqliteFileToken(file: string): string {
  return `${statToken(file)} ${statToken(`${file}-wal`)}`;
}

/**
 * Polls a SQLite state file every `intervalMs` (default 250): two `stat` calls, so it costs no
 * query and opens, creates and writes nothing. `changed` is called whenever the file's token
 * differs from the one before; a token that cannot be read counts as a change, so the refresh
 * that follows reports the problem.
 *
 * @example startInspector({ store, changes: sqliteFileChanges('/var/lib/gw/state.db') })
 */
export function sqliteFileChanges(file: string, intervalMs: number = FILE_POLL_MS): ChangeSource {
  // Through a symbolic link, SQLite keeps the -wal beside the link's target: poll that one.
  let real = file;
  try {
    real = fs.realpathSync(file);
  } catch {
    // Not there (yet): the token says so, and the path as given is polled.
  }
  const token = (): string => {
    try {
      return sqliteFileToken(real);
    } catch (error) {
      return `failed: ${String((error as NodeJS.ErrnoException).code ?? 'error')}`;
    }
  };
  return async (changed) => {
    let last = token();
    const timer = setInterval(() => {
      const now = token();
      if (now !== last) {
        last = now;
        changed();
      }
    }, intervalMs).unref();
    return { close: async () => clearInterval(timer) };
  };
}

/**
 * The store's cursor signals (`CursorSignalSource.listen`, PostgreSQL's LISTEN) and, as the safety net,
 * a change every `fallbackMs` (default 2000) whatever was signalled. A store
 * without `listen` gets only the timer.
 *
 * @example startInspector({ store, changes: storeSignalChanges(store) })
 */
export function storeSignalChanges(store: StateStore, fallbackMs: number = SIGNAL_FALLBACK_MS): ChangeSource {
  return async (changed) => {
    const timer = setInterval(changed, fallbackMs).unref();
    let listening: ChangeSubscription | undefined;
    try {
      if (isCursorSignalSource(store)) listening = await store.listen({ targetsChanged: changed, resync: changed, failed: () => undefined });
    } catch (error) {
      clearInterval(timer);
      throw error;
    }
    return {
      close: async () => {
        clearInterval(timer);
        await listening?.close();
      },
    };
  };
}
