// `sent`, `pending` and `drain`: a watch starts after a delivered message; the watcher's queued
// notices are read, or consumed all or nothing (newer changes reopen one notice per target).
import { isAgentQualified, type SessionKey } from '@session-state/domain';

import type { SessionStateAwareness } from './awarenessApi';
import type { FacadeParts } from './facadeParts';
import { decodeSent, decodeSessionKey } from './inputs';
import { decodeReadable } from './unreadableInput';

export function createNoticeMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'sent' | 'pending' | 'drain'> {
  const { store, failures, board, order } = parts;
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

    pending(watcherKey) {
      failures.ensureOpen('pending');
      return queue.texts(decodeReadable('pending.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'pending.watcherKey')));
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
        return drained.map((entry) => entry.text);
      });
    },
  };
}
