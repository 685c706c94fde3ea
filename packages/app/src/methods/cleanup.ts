// `sessionReset`, `sessionDeleted` and `prune`: cursors, events and notices go, in call order.
import type { StateStore } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { ClockError } from '../errors/errors.js';
import type { Failures } from '../errors/failures.js';
import { decodeSessionKey } from '../input/codecs.js';
import { decodeReadable } from '../input/unreadable.js';
import type { NoticeBoard } from '../notices/board.js';
import type { CallOrder } from '../pipeline/lane.js';
import type { Retention } from '../retention.js';

export interface CleanupMethodsDeps {
  readonly store: StateStore;
  readonly failures: Failures;
  readonly board: NoticeBoard;
  readonly order: CallOrder;
  readonly retention: Retention;
}

export function createCleanupMethods({ store, failures, board, order, retention }: CleanupMethodsDeps): Pick<SessionStateAwareness, 'sessionReset' | 'sessionDeleted' | 'prune'> {
  return {
    async sessionReset(sessionKey) {
      failures.ensureOpen('sessionReset');
      const key = decodeReadable('sessionReset.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionReset.sessionKey'));
      const now = failures.now('sessionReset', { sessionKey: key });
      await order.mutate('sessionReset', { sessionKey: key }, () => store.resetWatcher(key, now), (pairs) => {
        board.dropPairs(pairs);
        board.dropWatcher(key);
      });
    },

    async sessionDeleted(sessionKey) {
      failures.ensureOpen('sessionDeleted');
      const key = decodeReadable('sessionDeleted.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionDeleted.sessionKey'));
      const now = failures.now('sessionDeleted', { sessionKey: key });
      await order.mutate('sessionDeleted', { sessionKey: key }, () => store.deleteSession(key, now), (result) => {
        board.dropPairs(result.removedCursors);
        board.dropWatcher(key);
        board.dropTarget(key);
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
