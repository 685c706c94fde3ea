// The two halves of a drain around its store call, shared by the drain in the lane (noticeMethods)
// and the drain that heads a group-commit batch (appendPipeline): the snapshot of the watcher's
// queued notices and the clock reading, taken when the drain runs (every earlier append is in the
// queue by then), and the queue update after the store committed.
import type { DrainOutcome, DrainRequest, SessionKey } from '@session-state/domain';

import type { Notice } from './awarenessApi.js';
import type { Failures } from './failures.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { QueuedNotice } from './noticeQueue.js';

/** A drain about to call the store: what it consumes and the request. */
export interface DrainStart {
  readonly drained: readonly QueuedNotice[];
  readonly request: DrainRequest;
}

/** A queued entry as the public Notice (a fresh object: the caller may keep or change it). */
export const toNotice = (watcher: string, entry: QueuedNotice): Notice => ({ watcher, target: entry.target, changesSince: entry.acked, text: entry.text });

/**
 * The watcher's queued notices and the acks that consume them; undefined when none is queued.
 * Throws the clock's failure (a bad reading consumes nothing: the notices stay queued).
 */
export function startDrain(board: NoticeBoard, failures: Failures, watcher: SessionKey): DrainStart | undefined {
  const drained = board.queue.entries(watcher);
  if (drained.length === 0) return undefined;
  const acks = drained.map((entry) => ({ target: entry.target as SessionKey, notified: entry.notified }));
  return { drained, request: { watcher, acks, now: failures.now('drain', { watcher }) } };
}

/** After the store committed the drain: removes what it consumed, queues what reopened, returns the notices. */
export function finishDrain(board: NoticeBoard, start: DrainStart, outcomes: readonly DrainOutcome[]): Notice[] {
  const { watcher } = start.request;
  for (const entry of start.drained) board.queue.removeIfSame(watcher, entry);
  for (const outcome of outcomes) {
    const next = outcome.result === 'acked' ? outcome.reopened : outcome.pending;
    if (next !== undefined) board.offer(next);
  }
  return start.drained.map((entry) => toNotice(watcher, entry));
}
