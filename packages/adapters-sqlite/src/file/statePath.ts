// Where a state file really is: SQLite keeps the -wal and -shm beside a symbolic link's target, so every open uses the resolved path.
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
