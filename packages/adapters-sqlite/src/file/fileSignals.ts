// Cursor signals on a file several processes share: the folder is watched for writes to the file and its -wal (every
// WAL commit writes it), and PRAGMA data_version, which moves only when another connection committed, decides whether
// the listener re-reads. The store's own commits cost one pragma each burst; its worker's (a prune) move it too.
import fs from 'node:fs';
import nodePath from 'node:path';

import { storeError, type CursorSignalListener, type CursorSignalSubscription } from '@session-state/domain';

/** A burst of file events (a commit's frames) is gathered this long into one check. */
const GATHER_MS = 2;
/** A last check this long after the last event, for a commit made visible only after a slow WAL sync. */
const SETTLE_MS = 50;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 30_000;

/** Listens for other connections' commits to `file`; `dataVersion` reads PRAGMA data_version on the store's connection. A watch that fails is reported and retried. */
export async function listenOnFile(file: string, dataVersion: () => number, listener: CursorSignalListener): Promise<CursorSignalSubscription> {
  const names = new Set([nodePath.basename(file), `${nodePath.basename(file)}-wal`]);
  let seen = dataVersion();
  let watcher: fs.FSWatcher | undefined;
  let gather: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = FIRST_RETRY_MS;

  const check = (): void => {
    gather = undefined;
    try {
      const now = dataVersion();
      if (now === seen) return;
      seen = now;
    } catch (error) {
      return listener.failed(storeError('listen', error));
    }
    listener.resync();
  };
  const settle = setTimeout(check, SETTLE_MS).unref();
  const changed = (_event: string, name: string | null): void => {
    if (name !== null && !names.has(name)) return;
    gather ??= setTimeout(check, GATHER_MS).unref();
    settle.refresh();
  };

  const watchFolder = (): void => {
    try {
      watcher = fs.watch(nodePath.dirname(file), { persistent: false }, changed).on('error', lost);
    } catch (error) {
      return lost(error);
    }
    retryMs = FIRST_RETRY_MS;
    // What was committed before the watch began was not seen.
    listener.resync();
  };
  /** A watcher that failed has closed itself (Node's FSWatcher); another is tried later. */
  const lost = (error: unknown): void => {
    listener.failed(storeError('listen', error));
    retry = setTimeout(watchFolder, retryMs).unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  watchFolder();
  return {
    // Every callback runs from the watcher or a timer: none runs after this.
    async close() {
      watcher?.close();
      for (const timer of [gather, settle, retry]) clearTimeout(timer);
    },
  };
}
