// Notices when a writer's state file is removed or replaced under it (its writes would go to the
// unlinked file): the path's device and inode are compared on a timer, and writes then fail.
import fs from 'node:fs';

import type { Logger } from '@session-state/domain';

/** How often the path is compared with the file opened, in milliseconds. */
const FILE_IDENTITY_CHECK_MS = 1000;

/** The path's device and inode, or undefined when nothing is there. */
function identityAt(path: string): string | undefined {
  const stat = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
  return stat && `${stat.dev}:${stat.ino}`;
}

/** Watches the file just opened at `path` (resolved, see statePath.ts); `logger` hears once when it went. */
export function watchFileIdentity(path: string, logger: Logger) {
  const opened = identityAt(path);
  let gone: Error | undefined;
  const check = (): void => {
    if (gone !== undefined || opened === undefined) return;
    let now: string | undefined;
    try {
      now = identityAt(path);
    } catch {
      // A failed stat (a permission changed, an I/O error) says nothing about the file: check again later.
      return;
    }
    if (now === opened) return;
    const what = now === undefined ? 'removed' : 'replaced';
    gone = new Error(`the state file ${path} was ${what} since it was opened; this store refuses writes, which would go into the old file that no other process reads (reopen the store)`);
    clearInterval(timer);
    logger.error({ operation: 'fileIdentity', path, what }, `state file ${what} under a running store: writes now fail`);
  };
  const timer = setInterval(check, FILE_IDENTITY_CHECK_MS).unref();
  return {
    /** Throws (the store's write then rejects) once the file was removed or replaced since it was opened. */
    requireSameFile() {
      if (gone !== undefined) throw gone;
    },
    stop: () => clearInterval(timer),
  };
}
