// The notice board: the in-memory notice queue, the wake port, and the notice counters. Every
// notice the store asks for is offered here; a new entry is counted and wakes its watcher.
import { isNestedSubagent, type CursorPair, type Logger, type Notice, type Wake } from '@session-state/domain';

import type { Counters } from './metrics.js';
import { createNoticeQueue, type NoticeQueue } from './noticeQueue.js';
import { createRemovalWatches, type RemovalWatch } from './removalWatch.js';
import { describeFailure } from './storeOperationError.js';

export interface NoticeBoard {
  /** The queue itself, for drains, `pending` and the cross-process re-reads. */
  readonly queue: NoticeQueue;
  /**
   * Offers a notice the store asked for; a new entry is counted and wakes its watcher.
   * `signalled`: it came from a re-read run by a cross-process signal or the resync timer. Such
   * a re-read offers every pending notice again (each resync tick does), so finding it already
   * queued is no news and is not counted as coalesced; only a new entry counts.
   */
  offer(notice: Notice, signalled?: boolean): void;
  /** Removes the entries of cursors the store removed (a reset, a delete, an expiry). */
  dropPairs(pairs: readonly CursorPair[]): void;
  /** Starts watching for entries leaving the queue (a re-read beside the lane checks its answer with it). */
  watchRemovals(): RemovalWatch;
}

export interface NoticeBoardDeps {
  readonly wake: Wake | undefined;
  readonly logger: Logger;
  readonly counters: Counters;
}

export function createNoticeBoard({ wake: wakePort, logger, counters }: NoticeBoardDeps): NoticeBoard {
  const removals = createRemovalWatches();
  const queue = createNoticeQueue(removals.removed);

  /** A nested sub-agent is never woken; a wake port that throws is logged and changes nothing. */
  const wake = (watcher: string): void => {
    if (wakePort === undefined || isNestedSubagent(watcher)) return;
    try {
      wakePort(watcher);
    } catch (error) {
      logger.warn({ operation: 'wake', watcher, error: describeFailure(error) }, 'wake port threw');
    }
  };

  return {
    queue,
    offer(notice, signalled = false) {
      // The notice itself, not a copy per offer: most offers on a busy target only coalesce.
      const offered = queue.offer(notice.watcher, notice);
      if (offered === 'coalesced') {
        if (!signalled) counters.add('noticesCoalesced');
        return;
      }
      counters.add('noticesQueued');
      if (signalled) counters.add('noticesSignalled');
      else if (notice.reason === 'reopen') counters.add('noticesReopened');
      else if (notice.reason === 'recovered') counters.add('noticesRecovered');
      wake(notice.watcher);
    },
    dropPairs(pairs) {
      for (const pair of pairs) queue.remove(pair.watcher, pair.target);
    },
    watchRemovals: removals.start,
  };
}
