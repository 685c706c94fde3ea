// The notice board: the queue, the wake port and the notice counters. A wake means "this watcher has a notice
// that is not taken": called when an entry becomes one (new, or its lease gone), once the facade is ready, unless ambient.
import { isNestedSubagent, noticeText, type CursorPair, type DrainOutcome, type DrainRequest, type Logger, type Notice as StoreNotice, type SessionKey, type Wake } from '@session-state/domain';

import type { Notice, TakenNotice } from '../api.js';
import { describeFailure } from '../errors/errors.js';
import type { Counters, MetricName } from '../metrics.js';
import type { OwnsWatcher } from '../ports.js';
import { createNoticeQueue, type QueuedNotice } from './queue.js';

/** What a drain item does: `drain` acknowledges the watcher's notices, `take` leases them, `confirm` acknowledges what was taken. */
export type DrainMode = 'drain' | 'take' | 'confirm';

/** A drain item about to call the store: its mode, the entries it hands out (drain, take) and the request. */
export type DrainStart = { readonly mode: DrainMode; readonly entries: readonly QueuedNotice[]; readonly request: DrainRequest };

/** What a drain item settled: the notices it handed out (drain, take) and how many it acknowledged (drain, confirm). */
export type DrainSettled = { readonly handed: readonly TakenNotice[]; readonly acked: number };

export type NoticeBoard = ReturnType<typeof createNoticeBoard>;

export interface BoardPorts {
  readonly wake: Wake | undefined;
  readonly logger: Logger;
  readonly counters: Counters;
  readonly owns: OwnsWatcher | undefined;
  /** The clock for `operation`, read to tell a running lease from an ended one; a bad reading throws (a logged ClockError). */
  readonly now: (operation: string) => number;
  readonly noticeLink: ((targetKey: string) => string | undefined) | undefined;
}

const toNotice = (watcher: string, entry: QueuedNotice): Notice => ({ watcher, target: entry.target, changesSince: entry.acked, text: entry.text });

export function createNoticeBoard({ wake: wakePort, logger, counters, owns, now, noticeLink }: BoardPorts) {
  const queue = createNoticeQueue();
  // Entries a failed drain handed out: the store may have acknowledged them, so only a drain takes them out.
  const unsure = new WeakSet<QueuedNotice>();
  // The wakes start-up owes, one per new entry; undefined once start-up is over.
  let owed: string[] | undefined = [];

  const wake = (watcher: string): void => {
    if (wakePort === undefined || isNestedSubagent(watcher)) return;
    if (owed !== undefined) return void owed.push(watcher);
    try {
      wakePort(watcher);
    } catch (error) {
      logger.warn({ operation: 'wake', watcher, error: describeFailure(error) }, 'wake port threw');
    }
  };

  const textOf = (target: string, acked: StoreNotice['acked']): string => {
    try {
      const link = noticeLink?.(target);
      return noticeText(target, acked, typeof link === 'string' && link !== '' ? link : undefined);
    } catch (error) {
      logger.warn({ operation: 'noticeLink', target, error: describeFailure(error) }, 'noticeLink threw; the notice has no link');
      return noticeText(target, acked);
    }
  };

  const visible = (watcher: string, at: number): QueuedNotice[] => queue.entries(watcher).filter((entry) => (entry.takenUntil ?? at) <= at);

  /** `signalled`: from a cross-process re-read, which offers every pending notice again, so a coalesce is no news. */
  const offer = (notice: StoreNotice, signalled = false): void => {
    const outcome = queue.offer(notice.watcher, notice, textOf);
    if (outcome !== 'queued') {
      if (!signalled && outcome === 'coalesced') counters.add('noticesCoalesced');
      if (outcome === 'released' && notice.ambient !== true) wake(notice.watcher);
      return;
    }
    counters.add('noticesQueued');
    if (signalled) counters.add('noticesSignalled');
    else if (notice.reason === 'reopen') counters.add('noticesReopened');
    else if (notice.reason === 'recovered') counters.add('noticesRecovered');
    if (notice.takenUntil === undefined && notice.ambient !== true) wake(notice.watcher);
  };

  /** The clock's now for `operation`, or `fallback` when the reading fails (logged). */
  const nowOr = (operation: string, fallback: number): number => {
    try {
      return now(operation);
    } catch {
      return fallback;
    }
  };

  /** Wakes the watcher when a lease it took ends unconfirmed by the clock port, which a timer may fire before. */
  const wakeAtLeaseEnd = (watcher: string, { now: from, takenUntil: until = from }: Pick<DrainRequest, 'now' | 'takenUntil'>, isClosed: () => boolean): void => {
    setTimeout(() => {
      if (isClosed() || !queue.entries(watcher).some((entry) => entry.takenUntil === until && entry.ambient !== true)) return;
      const at = nowOr('wake', until);
      if (at < until) wakeAtLeaseEnd(watcher, { now: at, takenUntil: until }, isClosed);
      else wake(watcher);
    }, until - from).unref();
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
    /** The watcher's notices that are not taken, oldest first, as fresh public Notices. */
    pending(watcher: string): Notice[] {
      // A failed reading counts every lease as running until the clock reads again.
      return visible(watcher, nowOr('pending', Number.NEGATIVE_INFINITY)).map((entry) => toNotice(watcher, entry));
    },
    /**
     * The store request of a drain item (undefined: nothing to do): `drain` and `take` hand out the entries not taken,
     * `take` leased for `leaseMs`; `confirm` acknowledges `taken`. Reads the clock, which may throw.
     */
    startDrain(mode: DrainMode, watcher: SessionKey, leaseMs: number, taken: readonly Pick<TakenNotice, 'target' | 'notified'>[] = []): DrainStart | undefined {
      const at = now(mode);
      const entries = mode === 'confirm' ? [] : visible(watcher, at);
      const acks = (mode === 'confirm' ? taken : entries).map(({ target, notified }) => ({ target: target as SessionKey, notified: notified as StoreNotice['notified'] }));
      if (acks.length === 0) return undefined;
      return { mode, entries, request: { watcher, acks, now: at, ...(mode === 'take' ? { takenUntil: at + leaseMs } : {}) } };
    },
    /** The store call of a drain item failed; it may still have committed. */
    drainFailed: (start: DrainStart): void => start.entries.forEach((entry) => unsure.add(entry)),
    /** Whether `entry` was handed out by a drain that failed (its cursor may be acknowledged while it is still owed). */
    isUnsure: (entry: QueuedNotice): boolean => unsure.has(entry),
    /** After the store committed: removes what it acknowledged, marks what it leased, queues what reopened; the notices handed out and how many acknowledged. */
    finishDrain(start: DrainStart, outcomes: readonly DrainOutcome[], isClosed: () => boolean): DrainSettled {
      const { watcher } = start.request;
      const entryOn = new Map(start.entries.map((entry) => [entry.target, entry]));
      // A drain hands out every entry it read, acknowledged or not; what is still pending is queued anew.
      if (start.mode === 'drain') for (const entry of start.entries) queue.removeIfSame(watcher, entry);
      const handed: TakenNotice[] = [];
      for (const outcome of outcomes) {
        const entry = entryOn.get(outcome.target);
        if (outcome.result === 'taken') {
          queue.offer(watcher, outcome.notice, textOf);
          const kept = queue.entryOf(watcher, outcome.target);
          if (kept !== undefined) handed.push({ ...toNotice(watcher, kept), notified: kept.notified });
        } else if (outcome.result === 'acked') {
          const current = queue.entryOf(watcher, outcome.target);
          if (current !== undefined && current.acked < outcome.acked) queue.remove(watcher, outcome.target);
          if (outcome.reopened !== undefined) offer(outcome.reopened);
        } else if (outcome.pending !== undefined) offer(outcome.pending);
        else if (start.mode !== 'drain') queue.remove(watcher, outcome.target);
        if (start.mode === 'drain' && entry !== undefined) handed.push({ ...toNotice(watcher, entry), notified: entry.notified });
      }
      if (start.mode === 'take') {
        counters.add('noticesTaken', handed.length);
        if (handed.length > 0) wakeAtLeaseEnd(watcher, start.request, isClosed);
      }
      const acked = outcomes.filter((outcome) => outcome.result === 'acked').length;
      if (start.mode === 'confirm') counters.add('noticesConfirmed', acked);
      return { handed, acked };
    },
  };
}
