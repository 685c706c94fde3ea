// The append pipeline: appends join a bounded group-commit batch that runs in the operation lane
// as one store call, each caller gets its own result, and what follows a committed append (its
// notices, wakes and counters, the prune schedule check) can never turn that result into a failure.
//
// On a store with `drainThenAppend` a drain joins the pipeline too, always at the head of a batch
// of its own (the batch open when it is called is sealed first, so it runs after every earlier
// append and sees their notices queued), and the appends called after it join its batch: the
// drain and those appends commit together, in call order, one commit where there were two.
import { storeError, toRecordedEvent, type AppendOutcome, type AppendRequest, type Logger, type SessionKey, type StateStore } from '@session-state/domain';

import { APPEND_BATCH_BOUNDS, appendRequestWeight } from './appendBatchBounds';
import type { Notice, RecordResult } from './awarenessApi';
import { finishDrain, startDrain, type DrainStart } from './drainStep';
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
export type FailedResult = Extract<RecordResult, { readonly outcome: 'failed' }>;

/** `{ ok: false, outcome: 'failed', error }`. */
export const failedResult = (error: Error): FailedResult => ({ ok: false, outcome: 'failed', error });

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
      logger.error('queuing the notices of a committed append failed; the append stands', {
        operation: item.operation,
        sessionKey: item.request.command.sessionKey,
        kind: item.request.command.kind,
        error: describeFailure(error),
      });
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
        logger.error('the prune schedule check failed; skipped until the next append', { operation: 'prune', error: describeFailure(error) });
      }
    }
    return results;
  };

  /**
   * One store call for the batch (`store.append`, or `drainThenAppend` with a drain that has
   * notices to consume); a rejection means nothing of it was kept.
   */
  const callStore = async (start: DrainStart | undefined, items: readonly AppendItem[]): Promise<{ readonly drained?: Awaited<ReturnType<NonNullable<StateStore['drainThenAppend']>>>['drained']; readonly appended: readonly AppendOutcome[] }> => {
    const requests = items.map((item) => item.request);
    if (start === undefined) return { appended: await store.append(requests) };
    if (requests.length === 0) return { drained: { ok: true, outcomes: await store.drain(start.request.watcher, start.request.acks, start.request.now) }, appended: [] };
    return (store.drainThenAppend as NonNullable<StateStore['drainThenAppend']>)(start.request, requests);
  };

  const flushBatch = async (items: readonly BatchItem[]): Promise<readonly ItemOutcome[]> => {
    const head = items[0];
    const appendItems = (head?.kind === 'drain' ? items.slice(1) : items) as readonly AppendItem[];
    // The drain's snapshot, taken now that every earlier append is in the queue.
    let start: DrainStart | undefined;
    let drainSettled: DrainSettled | undefined;
    if (head?.kind === 'drain') {
      try {
        start = startDrain(board, failures, head.watcher);
        if (start === undefined) drainSettled = { drained: [] };
      } catch (error) {
        drainSettled = { drainFailed: error };
      }
    }
    if (start === undefined && appendItems.length === 0) return drainSettled === undefined ? [] : [drainSettled];
    // Timed only for an observer: two clock readings and an object per batch are measurable on
    // the one-record-per-transaction path (bench workload 7), and nobody would read them.
    const timed = deps.observe.timesAppendBatches && appendItems.length > 0;
    const started = timed ? performance.now() : 0;
    let answer: Awaited<ReturnType<typeof callStore>> | undefined;
    let failure: unknown;
    try {
      answer = await callStore(start, appendItems);
    } catch (error) {
      failure = error;
    }
    if (timed) deps.observe.appendBatch({ appends: appendItems.length, durationSeconds: (performance.now() - started) / 1000, failed: answer === undefined });
    // The drain's queue update first: it ran first.
    if (start !== undefined) {
      const drained = answer?.drained;
      if (drained?.ok === true) drainSettled = { drained: finishDrain(board, start, drained.outcomes) };
      else drainSettled = { drainFailed: failures.store('drain', drained === undefined ? failure : drained.error, { watcher: start.request.watcher }) };
    }
    const results = settleAppends(appendItems, answer?.appended, failure);
    return drainSettled === undefined ? results : [drainSettled, ...results];
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
    submit: (operation, request) => commit.submit({ kind: 'append', operation, request }) as Promise<RecordResult>,
    flushNow: commit.flushNow,
    ...(store.drainThenAppend !== undefined ? { drain } : {}),
  };
}
