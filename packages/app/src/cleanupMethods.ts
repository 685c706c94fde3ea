// `sessionReset`, `sessionDeleted` and `prune`: cursors, events and notices go, in call order.
import type { SessionStateAwareness } from './awarenessApi.js';
import { ClockError } from './clockReading.js';
import type { FacadeParts } from './facadeParts.js';
import { decodeSessionKey } from './inputs.js';
import { decodeReadable } from './unreadableInput.js';

export function createCleanupMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'sessionReset' | 'sessionDeleted' | 'prune'> {
  const { store, failures, board, order, retention } = parts;
  const queue = board.queue;

  return {
    async sessionReset(sessionKey) {
      failures.ensureOpen('sessionReset');
      const key = decodeReadable('sessionReset.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionReset.sessionKey'));
      // The journal entries of the removed cursors record this time.
      const now = failures.now('sessionReset', { sessionKey: key });
      await order.mutate('sessionReset', { sessionKey: key }, () => store.resetWatcher(key, now), (pairs) => {
        board.dropPairs(pairs);
        queue.removeWatcher(key);
      });
    },

    async sessionDeleted(sessionKey) {
      failures.ensureOpen('sessionDeleted');
      const key = decodeReadable('sessionDeleted.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionDeleted.sessionKey'));
      // The journal entries of the removed cursors record this time.
      const now = failures.now('sessionDeleted', { sessionKey: key });
      await order.mutate('sessionDeleted', { sessionKey: key }, () => store.deleteSession(key, now), (result) => {
        board.dropPairs(result.removedCursors);
        queue.removeWatcher(key);
        queue.removeTarget(key);
      });
    },

    async prune() {
      failures.ensureOpen('prune');
      try {
        return await retention.runNow();
      } catch (error) {
        // A bad clock reading prunes nothing and is reported as what it is.
        throw error instanceof ClockError ? failures.clock(error) : failures.store('prune', error);
      }
    },
  };
}
