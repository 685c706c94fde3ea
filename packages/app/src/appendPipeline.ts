// The append pipeline: appends join a bounded group-commit batch that runs in the operation lane
// as one store call, each caller gets its own result, and what follows a committed append (its
// notices, wakes and counters, the prune schedule check) can never turn that result into a failure.
import { storeError, toRecordedEvent, type AppendOutcome, type AppendRequest, type Logger, type StateStore } from '@session-state/domain';

import { APPEND_BATCH_BOUNDS, appendRequestWeight } from './appendBatchBounds';
import type { RecordResult } from './awarenessApi';
import type { Failures } from './failures';
import { createGroupCommit } from './groupCommit';
import type { Counters } from './metrics';
import type { NoticeBoard } from './noticeBoard';
import type { Observe } from './observing';
import type { OperationLane } from './operationLane';
import type { OwnsWatcher } from './ownership';
import { describeFailure } from './storeOperationError';

/** The facade operations that append. */
export type AppendOperation = 'record' | 'childSpawned';

export interface AppendPipeline {
  /** Joins the open batch (opening one if needed); resolves with the append's result, never rejects. */
  submit(operation: AppendOperation, request: AppendRequest): Promise<RecordResult>;
  /**
   * Hands the open batch to the lane now, so an operation called after an append in the same
   * tick runs after it (call order).
   */
  flushNow(): void;
}

export interface AppendPipelineDeps {
  readonly store: StateStore;
  readonly lane: OperationLane;
  readonly board: NoticeBoard;
  readonly counters: Counters;
  readonly failures: Failures;
  readonly logger: Logger;
  /** Told each batch's store call time. */
  readonly observe: Observe;
  /** Undefined: every notice is queued here. */
  readonly ownsForAppend: OwnsWatcher | undefined;
  /** Runs after a batch in which at least one append committed (the prune schedule check). */
  readonly afterAppends: () => void;
}

/** One request of a group-commit batch and the facade operation it came from. */
interface BatchItem {
  readonly operation: AppendOperation;
  readonly request: AppendRequest;
}

/** The result of an append that did not happen: the one shape `record` and `childSpawned` fail with. */
export type FailedResult = Extract<RecordResult, { readonly outcome: 'failed' }>;

/** `{ ok: false, outcome: 'failed', error }`. */
export const failedResult = (error: Error): FailedResult => ({ ok: false, outcome: 'failed', error });

export function createAppendPipeline(deps: AppendPipelineDeps): AppendPipeline {
  const { store, board, counters, failures, logger, ownsForAppend } = deps;

  const toResult = (item: BatchItem, outcome: AppendOutcome | undefined): RecordResult => {
    switch (outcome?.type) {
      case 'appended':
      case 'duplicate':
        return { ok: true, outcome: 'recorded', event: toRecordedEvent(outcome.event) };
      case 'skipped':
        return { ok: true, outcome: 'skipped', reason: 'unwatched' };
      case 'failed':
      case undefined: {
        const cause = outcome?.error ?? storeError('append', 'the store returned no outcome for this request');
        counters.add('appendFailures');
        const { command } = item.request;
        return failedResult(failures.store(item.operation, cause, { sessionKey: command.sessionKey, kind: command.kind }));
      }
      default: {
        const unreachable: never = outcome;
        return unreachable;
      }
    }
  };

  /**
   * What follows a committed append here (counters, the spawn edge's queue entry, its notices and
   * wakes): a failure in it is logged and never turns the append's result into a failure, since
   * the event is written and a caller retrying it would write it twice.
   */
  const afterCommitted = (item: BatchItem, outcome: AppendOutcome & { readonly type: 'appended' }): void => {
    try {
      counters.add('eventsAppended');
      // A spawn edge overwrote the pair's cursor, so a notice queued for the old one goes.
      const seedWatcher = item.request.seedWatcher;
      if (seedWatcher !== undefined) board.queue.remove(seedWatcher, item.request.command.sessionKey);
      // Another process's watcher hears of it there, by signal or resync, never here.
      for (const notice of outcome.notices) if (ownsForAppend === undefined || ownsForAppend(notice.watcher)) board.offer(notice);
    } catch (error) {
      logger.error('queuing the notices of a committed append failed; the append stands', {
        operation: item.operation,
        sessionKey: item.request.command.sessionKey,
        kind: item.request.command.kind,
        error: describeFailure(error),
      });
    }
  };

  const flushBatch = async (items: readonly BatchItem[]): Promise<readonly RecordResult[]> => {
    let outcomes: readonly AppendOutcome[];
    let failed = false;
    // Timed only for an observer: two clock readings and an object per batch are measurable on
    // the one-record-per-transaction path (bench workload 7), and nobody would read them.
    const timed = deps.observe.timesAppendBatches;
    const started = timed ? performance.now() : 0;
    try {
      outcomes = await store.append(items.map((item) => item.request));
    } catch (error) {
      failed = true;
      const failure: AppendOutcome = { type: 'failed', error: storeError('append', error) };
      outcomes = items.map(() => failure);
    }
    if (timed) deps.observe.appendBatch({ appends: items.length, durationSeconds: (performance.now() - started) / 1000, failed });
    let appended = false;
    const results: RecordResult[] = [];
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as BatchItem;
      const outcome = Array.isArray(outcomes) ? outcomes[i] : undefined;
      if (outcome?.type === 'appended') {
        appended = true;
        afterCommitted(item, outcome);
      }
      results.push(toResult(item, outcome));
    }
    if (appended) {
      // The retention schedule never changes the result of appends that committed.
      try {
        deps.afterAppends();
      } catch (error) {
        logger.error('the prune schedule check failed; skipped until the next append', { operation: 'prune', error: describeFailure(error) });
      }
    }
    return results;
  };

  const commit = createGroupCommit<BatchItem, RecordResult>(
    (run) => {
      void deps.lane.run(run);
    },
    flushBatch,
    (items, error) => items.map((item) => toResult(item, { type: 'failed', error: storeError('append', error) })),
    { bounds: APPEND_BATCH_BOUNDS, weigh: (item) => appendRequestWeight(item.request) },
  );

  return {
    submit: (operation, request) => commit.submit({ operation, request }),
    flushNow: commit.flushNow,
  };
}
