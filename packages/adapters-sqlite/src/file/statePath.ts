// Where a state file really is. SQLite follows a symbolic link and keeps the -wal and -shm beside
// the link's target, so every open (and every look at `<file>-wal`) must use the resolved path:
// a reader looking beside the link finds no -wal and reads the main file alone, a stale version.
import fs from 'node:fs';
import nodePath from 'node:path';

/**
 * `path` with every symbolic link resolved: the file's real path, or, for a file not created
 * yet, its folder's real path joined with its name. `:memory:`, and a path whose folder cannot
 * be resolved (the open then reports why), are returned as given.
 *
 * @example resolveStatePath('/srv/gw/state.db') // '/data/gw/state.db' when state.db links there
 */
export function resolveStatePath(path: string): string {
  if (path === ':memory:') return path;
  try {
    return fs.realpathSync(path);
  } catch {
    try {
      return nodePath.join(fs.realpathSync(nodePath.dirname(path)), nodePath.basename(path));
    } catch {
      return path;
    }
  }
}
