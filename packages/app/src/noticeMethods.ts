// `sent`, `unwatch`, `pending` and `drain`: a watch starts after a delivered message and ends on
// request; the watcher's queued notices are read, or consumed all or nothing (newer changes
// reopen one notice per target).
import { isAgentQualified } from '@session-state/domain';

import type { SessionStateAwareness } from './awarenessApi.js';
import { finishDrain, startDrain, toNotice } from './drainStep.js';
import type { FacadeParts } from './facadeParts.js';
import { decodeSent, decodeSessionKey } from './inputs.js';
import { decodeReadable } from './unreadableInput.js';

export function createNoticeMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'sent' | 'unwatch' | 'pending' | 'drain'> {
  const { store, counters, failures, board, order, appends } = parts;
  const queue = board.queue;

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
      // The journal entry of the removed cursor records this time.
      const now = failures.now('unwatch', fields);
      const result = await order.mutate('unwatch', fields, () => store.unwatch(watcher, target, now), () => {
        if (queue.remove(watcher, target)) counters.add('noticesUnwatched');
      });
      return { unwatched: result.removed };
    },

    pending(watcherKey) {
      failures.ensureOpen('pending');
      const watcher = decodeReadable('pending.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'pending.watcherKey'));
      return queue.entries(watcher).map((entry) => toNotice(watcher, entry));
    },

    async drain(watcherKey) {
      failures.ensureOpen('drain');
      const watcher = decodeReadable('drain.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'drain.watcherKey'));
      // A store that commits a drain with the appends called after it (drainThenAppend) takes
      // it into the group commit, at the head of a batch of its own: it runs in the lane there.
      if (appends.drain !== undefined) return appends.drain(watcher);
      // Always through the lane (an idle lane runs it at once): a notice from an append called
      // earlier in this tick is queued before the snapshot below.
      return order.enter(async () => {
        // Taken inside the lane, so every earlier append is already in the queue.
        const start = startDrain(board, failures, watcher);
        if (start === undefined) return [];
        let outcomes;
        try {
          outcomes = await store.drain(watcher, start.request.acks, start.request.now);
        } catch (error) {
          throw failures.store('drain', error, { watcher });
        }
        return finishDrain(board, start, outcomes);
      });
    },
  };
}
