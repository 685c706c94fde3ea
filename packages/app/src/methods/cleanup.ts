// `sessionReset`, `sessionDeleted` and `prune`: cursors, events and notices go, in call order.
import type { CursorPair } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { ClockError } from '../errors/errors.js';
import { decodeSessionKey } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type CleanupDeps = Pick<FacadeParts, 'store' | 'failures' | 'board' | 'order' | 'retention'>;
type CleanupMethods = Pick<SessionStateAwareness, 'sessionReset' | 'sessionDeleted' | 'prune'>;

export function createCleanupMethods({ store, failures, board, order, retention }: CleanupDeps): CleanupMethods {
  /** Removes the session's cursors as a watcher (and, deleted, as a target) in the store, then their queued notices. */
  const remove = async (operation: 'sessionReset' | 'sessionDeleted', sessionKey: string): Promise<void> => {
    failures.ensureOpen(operation);
    const key = decodeSessionKey(sessionKey, `${operation}.sessionKey`);
    const now = failures.now(operation, { sessionKey: key });
    const deleted = operation === 'sessionDeleted';
    const call = async (): Promise<readonly CursorPair[]> => (deleted ? (await store.deleteSession(key, now)).removedCursors : store.resetWatcher(key, now));
    await order.mutate(operation, { sessionKey: key }, call, (pairs) => {
      board.dropPairs(pairs);
      board.queue.removeWatcher(key);
      if (deleted) board.queue.removeTarget(key);
    });
  };

  return {
    sessionReset: (sessionKey) => remove('sessionReset', sessionKey),
    sessionDeleted: (sessionKey) => remove('sessionDeleted', sessionKey),

    async prune() {
      failures.ensureOpen('prune');
      try {
        return await retention.runNow();
      } catch (error) {
        throw error instanceof ClockError ? failures.clock(error) : failures.store('prune', error);
      }
    },
  };
}
