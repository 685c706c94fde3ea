// The append pipeline: appends join a bounded group-commit batch that runs in the operation lane
// as one store call, each caller gets its own result, and what follows a committed append (its
// notices, wakes and counters, the prune schedule check) can never turn that result into a failure.
//
// On a store with `drainThenAppend` a drain joins the pipeline too, always at the head of a batch
// of its own (the batch open when it is called is sealed first, so it runs after every earlier
// append and sees their notices queued), and the appends called after it join its batch: the
// drain and those appends commit together, in call order, one commit where there were two.
import { storeError, toRecordedEvent, type AppendOutcome, type AppendRequest, type DrainThenAppendResult, type Logger, type SessionKey, type StateStore } from '@session-state/domain';

import { APPEND_BATCH_BOUNDS, appendRequestWeight } from './appendBatchBounds.js';
import type { Notice, RecordError, RecordResult } from './awarenessApi.js';
import { finishDrain, startDrain, type DrainStart } from './drainStep.js';
import type { Failures } from './failures.js';
import { createGroupCommit } from './groupCommit.js';
import type { Counters } from './metrics.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { Observe } from './observing.js';
import type { OperationLane } from './operationLane.js';
import type { OwnsWatcher } from './ownership.js';
import { describeFailure, type StoreOperationError } from './storeOperationError.js';

/** The facade operations that append. */
export type AppendOperation = 'record' | 'childSpawned';

export interface AppendPipeline {
  /** Joins the open batch (opening one if needed); resolves with the append's result, never rejects. */
  submit(operation: AppendOperation, request: AppendRequest): Promise<AppendResult>;
  /**
   * Hands the open batch to the lane now, so an operation called after an append in the same
   * tick runs after it (call order).
   */
  flushNow(): void;
  /**
   * Present when the store has `drainThenAppend`: drains the watcher at the head of a new batch
   * (see the top of this file); resolves with the consumed notices, rejects as `drain` does.
   */
  readonly drain?: (watcher: SessionKey) => Promise<Notice[]>;
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

/** One append of a group-commit batch and the facade operation it came from. */
interface AppendItem {
  readonly kind: 'append';
  readonly operation: AppendOperation;
  readonly request: AppendRequest;
}

/** A drain heading a batch (only ever its first item). */
interface DrainItem {
  readonly kind: 'drain';
  readonly watcher: SessionKey;
}

type BatchItem = AppendItem | DrainItem;

/** What a drain item settles with: the consumed notices, or the error `drain` rejects with. */
type DrainSettled = { readonly drained: Notice[] } | { readonly drainFailed: unknown };

type ItemOutcome = RecordResult | DrainSettled;

/** The result of an append that did not happen: the one shape `record` and `childSpawned` fail with. */
export type FailedResult<E extends RecordError = RecordError> = { readonly ok: false; readonly outcome: 'failed'; readonly error: E };

/** What an append submitted to the pipeline resolves with: it fails only by the store. */
export type AppendResult = Exclude<RecordResult, FailedResult> | FailedResult<StoreOperationError>;

/** `{ ok: false, outcome: 'failed', error }`. */
export const failedResult = <E extends RecordError>(error: E): FailedResult<E> => ({ ok: false, outcome: 'failed', error });

export function createAppendPipeline(deps: AppendPipelineDeps): AppendPipeline {
  const { store, board, counters, failures, logger, ownsForAppend } = deps;

  const toResult = (item: AppendItem, outcome: AppendOutcome | undefined): RecordResult => {
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
  const afterCommitted = (item: AppendItem, outcome: AppendOutcome & { readonly type: 'appended' }): void => {
    try {
      counters.add('eventsAppended');
      // A spawn edge overwrote the pair's cursor, so a notice queued for the old one goes.
      const seedWatcher = item.request.seedWatcher;
      if (seedWatcher !== undefined) board.queue.remove(seedWatcher, item.request.command.sessionKey);
      // Another process's watcher hears of it there, by signal or resync, never here.
      for (const notice of outcome.notices) if (ownsForAppend === undefined || ownsForAppend(notice.watcher)) board.offer(notice);
    } catch (error) {
      logger.error({
        operation: item.operation,
        sessionKey: item.request.command.sessionKey,
        kind: item.request.command.kind,
        error: describeFailure(error),
      }, 'queuing the notices of a committed append failed; the append stands');
    }
  };

  /** The results of a batch's appends from the store's outcomes (undefined: the store call failed with `failure`). */
  const settleAppends = (items: readonly AppendItem[], outcomes: readonly AppendOutcome[] | undefined, failure: unknown): RecordResult[] => {
    const failed: AppendOutcome | undefined = outcomes === undefined ? { type: 'failed', error: storeError('append', failure) } : undefined;
    let appended = false;
    const results: RecordResult[] = [];
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as AppendItem;
      const outcome = failed ?? (Array.isArray(outcomes) ? outcomes[i] : undefined);
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
        logger.error({ operation: 'prune', error: describeFailure(error) }, 'the prune schedule check failed; skipped until the next append');
      }
    }
    return results;
  };

  /** Times a batch's store call for an observer; only then: two clock readings and an object per batch are measurable on the one-record-per-transaction path (bench workload 7). */
  const timing = (appends: number): ((failed: boolean) => void) | undefined => {
    if (!deps.observe.timesAppendBatches || appends === 0) return undefined;
    const started = performance.now();
    return (failed) => deps.observe.appendBatch({ appends, durationSeconds: (performance.now() - started) / 1000, failed });
  };

  /** A batch of appends alone: one `store.append`. */
  const flushAppends = async (items: readonly AppendItem[]): Promise<readonly RecordResult[]> => {
    const timed = timing(items.length);
    let outcomes: readonly AppendOutcome[] | undefined;
    let failure: unknown;
    try {
      outcomes = await store.append(items.map((item) => item.request));
    } catch (error) {
      failure = error;
    }
    timed?.(outcomes === undefined);
    return settleAppends(items, outcomes, failure);
  };

  /**
   * A batch headed by a drain: its snapshot is taken now, when every earlier append is in the
   * queue; then one store call (`drainThenAppend`, or `drain` or `append` alone when the other
   * part is empty), and the queue updates in call order: the drain's, then the appends'.
   */
  const flushDrainBatch = async (head: DrainItem, items: readonly AppendItem[]): Promise<readonly ItemOutcome[]> => {
    let start: DrainStart | undefined;
    try {
      start = startDrain(board, failures, head.watcher);
    } catch (error) {
      // A bad clock reading consumes nothing: the notices stay queued for the next drain.
      return [{ drainFailed: error }, ...(items.length > 0 ? await flushAppends(items) : [])];
    }
    if (start === undefined) return [{ drained: [] }, ...(items.length > 0 ? await flushAppends(items) : [])];
    const { watcher, acks, now } = start.request;
    const timed = timing(items.length);
    let drained: DrainThenAppendResult['drained'] | undefined;
    let appended: readonly AppendOutcome[] | undefined;
    let failure: unknown;
    try {
      if (items.length === 0) drained = { ok: true, outcomes: await store.drain(watcher, acks, now) };
      else ({ drained, appended } = await (store.drainThenAppend as NonNullable<StateStore['drainThenAppend']>)(start.request, items.map((item) => item.request)));
    } catch (error) {
      failure = error;
    }
    timed?.(appended === undefined);
    const settled: DrainSettled = drained?.ok === true ? { drained: finishDrain(board, start, drained.outcomes) } : { drainFailed: failures.store('drain', drained === undefined ? failure : drained.error, { watcher }) };
    return [settled, ...settleAppends(items, appended, failure)];
  };

  const flushBatch = (items: readonly BatchItem[]): Promise<readonly ItemOutcome[]> => {
    const head = items[0];
    return head?.kind === 'drain' ? flushDrainBatch(head, items.slice(1) as AppendItem[]) : flushAppends(items as readonly AppendItem[]);
  };

  const commit = createGroupCommit<BatchItem, ItemOutcome>(
    (run) => {
      void deps.lane.run(run);
    },
    flushBatch,
    (items, error) =>
      items.map((item) =>
        item.kind === 'drain' ? { drainFailed: failures.store('drain', error, { watcher: item.watcher }) } : toResult(item, { type: 'failed', error: storeError('append', error) }),
      ),
    { bounds: APPEND_BATCH_BOUNDS, weigh: (item) => (item.kind === 'drain' ? 0 : appendRequestWeight(item.request)) },
  );

  const drain = async (watcher: SessionKey): Promise<Notice[]> => {
    // Sealed: the drain heads a batch of its own, behind every append called before it.
    commit.flushNow();
    const settled = (await commit.submit({ kind: 'drain', watcher })) as DrainSettled;
    if ('drainFailed' in settled) throw settled.drainFailed;
    return settled.drained;
  };

  return {
    submit: (operation, request) => commit.submit({ kind: 'append', operation, request }) as Promise<AppendResult>,
    flushNow: commit.flushNow,
    ...(store.drainThenAppend !== undefined ? { drain } : {}),
  };
}
