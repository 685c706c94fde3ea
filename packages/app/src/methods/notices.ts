// `sent`, `unwatch`, `pending` and `drain`: a watch starts after a delivered message and ends on
// request; the watcher's queued notices are read, or consumed all or nothing.
import { isAgentQualified, type StateStore } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import type { Failures } from '../errors/failures.js';
import { decodeSent, decodeSessionKey } from '../input/codecs.js';
import { decodeReadable } from '../input/unreadable.js';
import type { NoticeBoard } from '../notices/board.js';
import type { AppendPipeline } from '../pipeline/appendPipeline.js';
import type { CallOrder } from '../pipeline/lane.js';

export interface NoticeMethodsDeps {
  readonly store: StateStore;
  readonly failures: Failures;
  readonly board: NoticeBoard;
  readonly order: CallOrder;
  readonly appends: AppendPipeline;
}

export function createNoticeMethods({ store, failures, board, order, appends }: NoticeMethodsDeps): Pick<SessionStateAwareness, 'sent' | 'unwatch' | 'pending' | 'drain'> {
  return {
    async sent(input) {
      failures.ensureOpen('sent');
      const { senderKey, deliveredTo, watch, delivered } = decodeReadable('sent', input, () => decodeSent(input));
      if (!watch || delivered === false || senderKey === deliveredTo) return { watched: false };
      if (!isAgentQualified(senderKey) || !isAgentQualified(deliveredTo)) return { watched: false };
      const fields = { watcher: senderKey, target: deliveredTo };
      await order.enter(async () => {
        // Read in the lane: the new cursor's touch time is when the watch runs.
        const now = failures.now('sent', fields);
        try {
          await store.watch({ watcher: senderKey, target: deliveredTo, now });
        } catch (error) {
          throw failures.store('sent', error, fields);
        }
      });
      return { watched: true };
    },

    async unwatch(watcherKey, targetKey) {
      failures.ensureOpen('unwatch');
      const watcher = decodeReadable('unwatch.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'unwatch.watcherKey'));
      const target = decodeReadable('unwatch.targetKey', targetKey, () => decodeSessionKey(targetKey, 'unwatch.targetKey'));
      const fields = { watcher, target };
      const now = failures.now('unwatch', fields);
      const result = await order.mutate('unwatch', fields, () => store.unwatch(watcher, target, now), () => board.withdraw(watcher, target, 'noticesUnwatched'));
      return { unwatched: result.removed };
    },

    pending(watcherKey) {
      failures.ensureOpen('pending');
      return board.pending(decodeReadable('pending.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'pending.watcherKey')));
    },

    async drain(watcherKey) {
      failures.ensureOpen('drain');
      const watcher = decodeReadable('drain.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'drain.watcherKey'));
      return appends.drain(watcher);
    },
  };
}
