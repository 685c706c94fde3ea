// `sent`, `unwatch`, `pending` and `drain`: a watch starts after a delivered message and ends on
// request; the watcher's queued notices are read, or consumed all or nothing (newer changes
// reopen one notice per target).
import { isAgentQualified, type SessionKey } from '@session-state/domain';

import type { Notice, SessionStateAwareness } from './awarenessApi';
import type { FacadeParts } from './facadeParts';
import { decodeSent, decodeSessionKey } from './inputs';
import type { QueuedNotice } from './noticeQueue';
import { decodeReadable } from './unreadableInput';

/** A queued entry as the public Notice (a fresh object: the caller may keep or change it). */
const toNotice = (watcher: string, entry: QueuedNotice): Notice => ({ watcher, target: entry.target, changesSince: entry.acked, text: entry.text });

export function createNoticeMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'sent' | 'unwatch' | 'pending' | 'drain'> {
  const { store, counters, failures, board, order } = parts;
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
      // Always through the lane (an idle lane runs it at once): a notice from an append called
      // earlier in this tick is queued before the snapshot below.
      return order.enter(async () => {
        // Taken inside the lane, so every earlier append is already in the queue.
        const drained = queue.entries(watcher);
        if (drained.length === 0) return [];
        const acks = drained.map((entry) => ({ target: entry.target as SessionKey, notified: entry.notified }));
        // A bad clock reading consumes nothing: the notices stay queued for the next drain.
        const now = failures.now('drain', { watcher });
        let outcomes;
        try {
          outcomes = await store.drain(watcher, acks, now);
        } catch (error) {
          throw failures.store('drain', error, { watcher });
        }
        for (const entry of drained) queue.removeIfSame(watcher, entry);
        for (const outcome of outcomes) {
          const next = outcome.result === 'acked' ? outcome.reopened : outcome.pending;
          if (next !== undefined) board.offer(next);
        }
        return drained.map((entry) => toNotice(watcher, entry));
      });
    },
  };
}
