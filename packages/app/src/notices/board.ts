// The notice board: the notice queue, the wake port and the notice counters. Every notice the
// store asks for is offered here; a new entry is counted and wakes its watcher (once the facade is ready).
import { isNestedSubagent, type CursorPair, type DrainOutcome, type DrainRequest, type Logger, type Notice as StoreNotice, type SessionKey, type Wake } from '@session-state/domain';

import type { Notice } from '../api.js';
import { describeFailure } from '../errors/errors.js';
import type { Counters, MetricName } from '../metrics.js';
import type { OwnsWatcher } from '../ports.js';
import { createNoticeQueue, type QueuedNotice } from './queue.js';

/** A drain about to call the store: the entries it consumes and the request. */
export type DrainStart = { readonly drained: readonly QueuedNotice[]; readonly request: DrainRequest };

export type NoticeBoard = ReturnType<typeof createNoticeBoard>;

const toNotice = (watcher: string, entry: QueuedNotice): Notice => ({ watcher, target: entry.target, changesSince: entry.acked, text: entry.text });

export function createNoticeBoard(wakePort: Wake | undefined, logger: Logger, counters: Counters, owns: OwnsWatcher | undefined) {
  const queue = createNoticeQueue();
  // The wakes start-up owes, one per new entry; undefined once start-up is over.
  let owed: string[] | undefined = [];

  const wake = (watcher: string): void => {
    if (wakePort === undefined || isNestedSubagent(watcher)) return;
    try {
      wakePort(watcher);
    } catch (error) {
      logger.warn({ operation: 'wake', watcher, error: describeFailure(error) }, 'wake port threw');
    }
  };

  /** `signalled`: from a cross-process re-read, which offers every pending notice again, so a coalesce is no news. */
  const offer = (notice: StoreNotice, signalled = false): void => {
    if (queue.offer(notice.watcher, notice) === 'coalesced') {
      if (!signalled) counters.add('noticesCoalesced');
      return;
    }
    counters.add('noticesQueued');
    if (signalled) counters.add('noticesSignalled');
    else if (notice.reason === 'reopen') counters.add('noticesReopened');
    else if (notice.reason === 'recovered') counters.add('noticesRecovered');
    if (owed === undefined) wake(notice.watcher);
    else owed.push(notice.watcher);
  };

  return {
    /** Start-up is over: wakes are called at once from now on; returns what calls the owed ones, in order. */
    started(): () => void {
      const wakes = owed ?? [];
      owed = undefined;
      return () => wakes.forEach(wake);
    },
    /** The queue itself: the cross-process re-reads, cleanup and the depth read it directly. */
    queue,
    offer,
    /** Offers a notice of this process's own operation, if this process owns its watcher. */
    offerOwned(notice: StoreNotice): void {
      if (owns === undefined || owns(notice.watcher)) offer(notice);
    },
    /** Withdraws the pair's entry, counted as `counter` when there was one. */
    withdraw(watcher: string, target: string, counter?: MetricName): void {
      if (queue.remove(watcher, target) && counter !== undefined) counters.add(counter);
    },
    /** Removes the entries of cursors the store removed (a reset, a delete, an expiry). */
    dropPairs(pairs: readonly CursorPair[]): void {
      for (const pair of pairs) queue.remove(pair.watcher, pair.target);
    },
    /** The watcher's queued notices, oldest first, as fresh public Notices. */
    pending: (watcher: string): Notice[] => queue.entries(watcher).map((entry) => toNotice(watcher, entry)),
    /** The watcher's entries and the acks consuming them (undefined: none); `now` is read only then and may throw. */
    startDrain(watcher: SessionKey, now: () => number): DrainStart | undefined {
      const drained = queue.entries(watcher);
      if (drained.length === 0) return undefined;
      const acks = drained.map((entry) => ({ target: entry.target as SessionKey, notified: entry.notified }));
      return { drained, request: { watcher, acks, now: now() } };
    },
    /** After the store committed the drain: removes what it consumed, queues what reopened. */
    finishDrain(start: DrainStart, outcomes: readonly DrainOutcome[]): Notice[] {
      const { watcher } = start.request;
      for (const entry of start.drained) queue.removeIfSame(watcher, entry);
      for (const outcome of outcomes) {
        const next = outcome.result === 'acked' ? outcome.reopened : outcome.pending;
        if (next !== undefined) offer(next);
      }
      return start.drained.map((entry) => toNotice(watcher, entry));
    },
  };
}
