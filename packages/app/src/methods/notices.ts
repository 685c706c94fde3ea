// `sent`, `watch`, `unwatch`, `pending` and `drain`: a watch starts after a delivered message or on request and ends on
// request; the watcher's queued notices are read, or consumed all or nothing.
import { isAgentQualified, type SessionKey } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { decode, decodeOptional, decodeSessionKey, SentInput, TakenNotices, WatchOptions } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type NoticeDeps = Pick<FacadeParts, 'store' | 'failures' | 'board' | 'order' | 'appends'>;
type NoticeMethods = Pick<SessionStateAwareness, 'sent' | 'watch' | 'unwatch' | 'pending' | 'drain' | 'take' | 'confirm'>;

export function createNoticeMethods({ store, failures, board, order, appends }: NoticeDeps): NoticeMethods {
  /** Watches when the keys are two different agent-qualified ones (`watched` false otherwise: nothing is written). */
  const watchPair = async (operation: 'sent' | 'watch', watcher: SessionKey, target: SessionKey, ambient: boolean): Promise<{ readonly watched: boolean }> => {
    if (watcher === target || !isAgentQualified(watcher) || !isAgentQualified(target)) return { watched: false };
    await order.enter(async () => {
      // Read in the lane: the new cursor's touch time is when the watch runs.
      const now = failures.now(operation, { watcher, target });
      await failures.storeCall(operation, () => store.watch({ watcher, target, now, ...(ambient ? { ambient } : {}) }), { watcher, target });
    });
    return { watched: true };
  };

  return {
    async sent(input) {
      failures.ensureOpen('sent');
      const { senderKey, deliveredTo, watch, delivered } = decode(SentInput, input, 'sent');
      return watch && delivered !== false ? watchPair('sent', senderKey, deliveredTo, false) : { watched: false };
    },

    async watch(watcherKey, targetKey, options) {
      failures.ensureOpen('watch');
      const [watcher, target] = [decodeSessionKey(watcherKey, 'watch.watcherKey'), decodeSessionKey(targetKey, 'watch.targetKey')];
      return watchPair('watch', watcher, target, decodeOptional(WatchOptions, options, 'watch.options')?.ambient === true);
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
      const { acked } = await appends.drain('confirm', watcher, decode(TakenNotices, taken, 'confirm.taken'));
      return { confirmed: acked };
    },
  };
}
