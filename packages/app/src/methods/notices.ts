// `sent`, `unwatch`, `pending` and `drain`: a watch starts after a delivered message and ends on
// request; the watcher's queued notices are read, or consumed all or nothing.
import { isAgentQualified } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { decodeSent, decodeSessionKey, decodeTaken } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type NoticeDeps = Pick<FacadeParts, 'store' | 'failures' | 'board' | 'order' | 'appends'>;
type NoticeMethods = Pick<SessionStateAwareness, 'sent' | 'unwatch' | 'pending' | 'drain' | 'take' | 'confirm'>;

export function createNoticeMethods({ store, failures, board, order, appends }: NoticeDeps): NoticeMethods {
  return {
    async sent(input) {
      failures.ensureOpen('sent');
      const { senderKey, deliveredTo, watch, delivered } = decodeSent(input);
      const watchable = watch && delivered !== false && senderKey !== deliveredTo && isAgentQualified(senderKey) && isAgentQualified(deliveredTo);
      if (!watchable) return { watched: false };
      const fields = { watcher: senderKey, target: deliveredTo };
      await order.enter(async () => {
        // Read in the lane: the new cursor's touch time is when the watch runs.
        const now = failures.now('sent', fields);
        await failures.storeCall('sent', () => store.watch({ watcher: senderKey, target: deliveredTo, now }), fields);
      });
      return { watched: true };
    },

    async unwatch(watcherKey, targetKey) {
      failures.ensureOpen('unwatch');
      const fields = { watcher: decodeSessionKey(watcherKey, 'unwatch.watcherKey'), target: decodeSessionKey(targetKey, 'unwatch.targetKey') };
      const { watcher, target } = fields;
      const now = failures.now('unwatch', fields);
      const result = await order.mutate('unwatch', fields, () => store.unwatch(watcher, target, now), () => board.withdraw(watcher, target, 'noticesUnwatched'));
      return { unwatched: result.removed };
    },

    pending(watcherKey) {
      failures.ensureOpen('pending');
      return board.pending(decodeSessionKey(watcherKey, 'pending.watcherKey'));
    },

    async drain(watcherKey) {
      failures.ensureOpen('drain');
      const { handed } = await appends.drain('drain', decodeSessionKey(watcherKey, 'drain.watcherKey'));
      return handed.map(({ watcher, target, changesSince, text }) => ({ watcher, target, changesSince, text }));
    },

    async take(watcherKey) {
      failures.ensureOpen('take');
      return [...(await appends.drain('take', decodeSessionKey(watcherKey, 'take.watcherKey'))).handed];
    },

    async confirm(watcherKey, taken) {
      failures.ensureOpen('confirm');
      const watcher = decodeSessionKey(watcherKey, 'confirm.watcherKey');
      const { acked } = await appends.drain('confirm', watcher, decodeTaken(taken));
      return { confirmed: acked };
    },
  };
}
