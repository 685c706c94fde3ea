// The append pipeline: appends join a bounded group-commit batch, one store call in the lane; each
// caller gets its own result, which nothing after the commit (notices, wakes, counters, the prune
// schedule) turns into a failure. A drain heads a batch of its own, the first item of its `append`.
import { PAYLOAD_MAX_BYTES, storeError, toRecordedEvent, type AppendOutcome, type AppendRequest, type SessionKey } from '@session-state/domain';

import type { RecordError, RecordResult, TakenNotice } from '../api.js';
import { describeFailure, type StoreOperationError } from '../errors/errors.js';
import type { DrainMode, DrainSettled, DrainStart } from '../notices/board.js';
import type { FacadeParts } from '../parts.js';
import { createGroupCommit, type BatchBounds } from './groupCommit.js';
import { called } from './lane.js';

/** At most 128 appends and 256 KiB of summaries and payloads per store transaction, so no batch blocks the loop for long. */
export const APPEND_BATCH_BOUNDS: BatchBounds = { maxRequests: 128, maxWeight: 256 * 1024 };

/** An append's weight: its summary and its payload's JSON text, in characters. */
export function appendRequestWeight(request: AppendRequest): number {
  const { summary, payloadJson } = request.command;
  return summary.length + (payloadJson === undefined ? 0 : Math.min(PAYLOAD_MAX_BYTES, payloadJson.length));
}

export type AppendOperation = 'record' | 'childSpawned';

export type AppendPipeline = ReturnType<typeof createAppendPipeline>;

/** `afterAppends` runs after a batch in which an append committed (the prune schedule check). */
type PipelineDeps = Pick<FacadeParts, 'store' | 'lane' | 'board' | 'counters' | 'failures' | 'logger' | 'observe' | 'isClosed'> & {
  readonly afterAppends: () => void;
  readonly leaseMs: number;
};

type AppendItem = { readonly kind: 'append'; readonly operation: AppendOperation; readonly request: AppendRequest };
/** A drain, take or confirm heading a batch (only ever its first item). */
type QueuedDrain = { readonly kind: 'drain'; readonly mode: DrainMode; readonly watcher: SessionKey; readonly taken?: readonly Pick<TakenNotice, 'target' | 'notified'>[] };
type BatchItem = AppendItem | QueuedDrain;
type DrainResult = DrainSettled | { readonly drainFailed: unknown };
type ItemOutcome = RecordResult | DrainResult;

const NOTHING_DRAINED: DrainSettled = { handed: [], acked: 0 };

export type FailedResult<E extends RecordError = RecordError> = { readonly ok: false; readonly outcome: 'failed'; readonly error: E };

/** What a submitted append resolves with: it fails only by the store. */
type AppendResult = Exclude<RecordResult, FailedResult> | FailedResult<StoreOperationError>;

export const failedResult = <E extends RecordError>(error: E): FailedResult<E> => ({ ok: false, outcome: 'failed', error });

export function createAppendPipeline(deps: PipelineDeps) {
  const { store, board, counters, failures, logger, observe } = deps;

  const toResult = (item: AppendItem, outcome: AppendOutcome | undefined): RecordResult => {
    switch (outcome?.type) {
      case 'appended':
      case 'duplicate':
        return { ok: true, outcome: 'recorded', event: toRecordedEvent(outcome.event) };
      case 'skipped':
        return { ok: true, outcome: 'skipped', reason: 'unwatched' };
      default: {
        const cause = outcome?.type === 'failed' ? outcome.error : storeError('append', 'the store returned no outcome for this request');
        counters.add('appendFailures');
        const { command } = item.request;
        return failedResult(failures.store(item.operation, cause, { sessionKey: command.sessionKey, kind: command.kind }));
      }
    }
  };

  /** The appends' results (`outcomes` undefined: the call failed with `failure`); notices failing after a write are only logged: a retry writes twice. */
  const settleAppends = (items: readonly AppendItem[], outcomes: readonly AppendOutcome[] | undefined, failure: unknown): RecordResult[] => {
    const failed: AppendOutcome | undefined = outcomes === undefined ? { type: 'failed', error: storeError('append', failure) } : undefined;
    let appended = false;
    const results = items.map((item, i) => {
      const outcome = failed ?? (Array.isArray(outcomes) ? outcomes[i] : undefined);
      if (outcome?.type !== 'appended') return toResult(item, outcome);
      appended = true;
      const { command, seedWatcher } = item.request;
      try {
        counters.add('eventsAppended');
        // A spawn edge overwrote the pair's cursor, so a notice queued for the old one goes.
        if (seedWatcher !== undefined) board.withdraw(seedWatcher, command.sessionKey);
        for (const notice of outcome.notices) board.offerOwned(notice);
      } catch (error) {
        const fields = { operation: item.operation, sessionKey: command.sessionKey, kind: command.kind, error: describeFailure(error) };
        logger.error(fields, 'queuing the notices of a committed append failed; the append stands');
      }
      return toResult(item, outcome);
    });
    if (appended) {
      try {
        deps.afterAppends();
      } catch (error) {
        logger.error({ operation: 'prune', error: describeFailure(error) }, 'the prune schedule check failed; skipped until the next append');
      }
    }
    return results;
  };

  /** One store call (timed for an observer of append batches), settled by `settle` with its outcomes, or with undefined and what it failed with. */
  type Settle<R> = (outcomes: readonly AppendOutcome[] | undefined, failure: unknown) => R;
  const storeCall = <R>(run: () => Promise<readonly AppendOutcome[]>, appends: number, settle: Settle<R>): Promise<R> => {
    const observeBatch = appends > 0 ? observe.appendBatch : undefined;
    const started = observeBatch === undefined ? 0 : performance.now();
    const settled = (outcomes: readonly AppendOutcome[] | undefined, failure?: unknown): R => {
      observeBatch?.({ appends, durationSeconds: (performance.now() - started) / 1000, failed: outcomes === undefined });
      return settle(outcomes, failure);
    };
    return called(run).then(settled, (error: unknown) => settled(undefined, error));
  };

  const flushAppends = (items: readonly AppendItem[]): Promise<readonly RecordResult[]> =>
    items.length === 0
      ? Promise.resolve([])
      : storeCall(() => store.append(items.map((item) => item.request)), items.length, (outcomes, failure) => settleAppends(items, outcomes, failure));

  /** A batch headed by a drain item: its snapshot now (every earlier append is queued), one store call, then the queue in call order. */
  const flushDrainBatch = async (head: QueuedDrain, items: readonly AppendItem[]): Promise<readonly ItemOutcome[]> => {
    let start: DrainStart | undefined;
    try {
      start = board.startDrain(head.mode, head.watcher, deps.leaseMs, head.taken);
    } catch (error) {
      // A bad clock reading consumes nothing: the notices stay queued.
      return [{ drainFailed: error }, ...(await flushAppends(items))];
    }
    if (start === undefined) return [NOTHING_DRAINED, ...(await flushAppends(items))];
    const { request } = start;
    const settle = (outcome: AppendOutcome | undefined, failure: unknown): DrainResult => {
      if (outcome?.type === 'drained') return board.finishDrain(start, outcome.outcomes, deps.isClosed);
      board.drainFailed(start);
      return { drainFailed: failures.store(head.mode, outcome?.type === 'failed' ? outcome.error : (failure ?? 'the store returned no outcome for the drain'), { watcher: request.watcher }) };
    };
    // With no appends it is the store's `drain`, else the first item of one `append`.
    const run =
      items.length === 0
        ? async (): Promise<AppendOutcome[]> => [{ type: 'drained', outcomes: await store.drain(request) }]
        : () => store.append([{ type: 'drain', ...request }, ...items.map((item) => item.request)]);
    return storeCall(run, items.length, (outcomes, failure) => [settle(outcomes?.[0], failure), ...settleAppends(items, outcomes?.slice(1), failure)]);
  };

  const commit = createGroupCommit<BatchItem, ItemOutcome>(
    (run) => void deps.lane.run(run),
    (items) => {
      const head = items[0];
      return head?.kind === 'drain' ? flushDrainBatch(head, items.slice(1) as AppendItem[]) : flushAppends(items as readonly AppendItem[]);
    },
    (items, error) =>
      items.map((item) =>
        item.kind === 'drain' ? { drainFailed: failures.store(item.mode, error, { watcher: item.watcher }) } : toResult(item, { type: 'failed', error: storeError('append', error) }),
      ),
    { bounds: APPEND_BATCH_BOUNDS, weigh: (item) => (item.kind === 'drain' ? 0 : appendRequestWeight(item.request)) },
  );

  return {
    /** Joins the open batch; resolves with the append's result, never rejects. */
    submit: (operation: AppendOperation, request: AppendRequest) => commit.submit({ kind: 'append', operation, request }) as Promise<AppendResult>,
    /** Hands the open batch to the lane now (call order). */
    flushNow: commit.flushNow,
    /** Drains, takes or confirms at the head of a new batch (call order); rejects with the store's or the clock's failure. */
    async drain(mode: DrainMode, watcher: SessionKey, taken?: readonly Pick<TakenNotice, 'target' | 'notified'>[]): Promise<DrainSettled> {
      commit.flushNow();
      const settled = (await commit.submit({ kind: 'drain', mode, watcher, ...(taken !== undefined ? { taken } : {}) })) as DrainResult;
      if ('drainFailed' in settled) throw settled.drainFailed;
      return settled;
    },
  };
}
