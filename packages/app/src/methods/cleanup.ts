// `sessionReset`, `sessionDeleted` and `prune`: cursors, events and notices go, in call order.
import type { SessionStateAwareness } from '../api.js';
import { ClockError } from '../errors/errors.js';
import { decodeSessionKey } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type CleanupDeps = Pick<FacadeParts, 'store' | 'failures' | 'board' | 'order' | 'retention'>;
type CleanupMethods = Pick<SessionStateAwareness, 'sessionReset' | 'sessionDeleted' | 'prune'>;

export function createCleanupMethods({ store, failures, board, order, retention }: CleanupDeps): CleanupMethods {
  return {
    async sessionReset(sessionKey) {
      failures.ensureOpen('sessionReset');
      const key = decodeSessionKey(sessionKey, 'sessionReset.sessionKey');
      const now = failures.now('sessionReset', { sessionKey: key });
      await order.mutate('sessionReset', { sessionKey: key }, () => store.resetWatcher(key, now), (pairs) => {
        board.dropPairs(pairs);
        board.queue.removeWatcher(key);
      });
    },

    async sessionDeleted(sessionKey) {
      failures.ensureOpen('sessionDeleted');
      const key = decodeSessionKey(sessionKey, 'sessionDeleted.sessionKey');
      const now = failures.now('sessionDeleted', { sessionKey: key });
      await order.mutate('sessionDeleted', { sessionKey: key }, () => store.deleteSession(key, now), (result) => {
        board.dropPairs(result.removedCursors);
        board.queue.removeWatcher(key);
        board.queue.removeTarget(key);
      });
    },

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
