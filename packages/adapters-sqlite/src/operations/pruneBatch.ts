// The store's prune call: parts on the store's own connection, a turn of the event loop between
// them, and the row cap in one worker batch once no aged event is left; the WAL schedule between.
import type { CursorPair, Logger, PruneBatch, PruneRequest } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';
import type { StoreWorker } from '../worker/storeWorker.js';
import { nextTurn, type WalSchedule, type WriteGate } from '../worker/walBound.js';
import { OWN_CONNECTION_BATCH_ROWS, planCapWrites, prune } from './prune.js';

/** Events per table page, about: a worker batch's pages besides one index page per session. */
const EVENTS_PER_PAGE = 20;

interface PruneBatchDeps {
  readonly current: () => StoreDb;
  readonly worker: StoreWorker;
  readonly gate: WriteGate;
  readonly wal: WalSchedule;
  readonly readOnly: boolean;
}

/** One port batch: `batchSize` events unless done first, and at most that many cursors and journal entries. */
export async function pruneBatch(deps: PruneBatchDeps, request: PruneRequest): Promise<{ readonly batch: PruneBatch; readonly removed: number }> {
  const { current, worker, gate, wal } = deps;
  let removed = 0;
  let eventsDeleted = 0;
  let journalDeleted = 0;
  const expiredCursors: CursorPair[] = [];
  // Each part's journal window resumes where the previous part's stopped.
  let journalAfter = request.journalAfter;
  const carried = (): { journalAfter?: number } => (journalAfter === undefined ? {} : { journalAfter });
  for (;;) {
    await wal.ready();
    const useWorker = worker.usable && !deps.readOnly;
    const batchSize = Math.min(request.batchSize - Math.max(eventsDeleted, expiredCursors.length, journalDeleted), OWN_CONNECTION_BATCH_ROWS);
    const own = prune(current(), { ...request, ...carried(), batchSize }, { capInline: !useWorker });
    journalAfter = own.batch.journalAfter ?? journalAfter;
    eventsDeleted += own.batch.eventsDeleted;
    expiredCursors.push(...own.batch.expiredCursors);
    journalDeleted += own.rowsRemoved - own.batch.eventsDeleted - own.batch.expiredCursors.length;
    removed += own.rowsRemoved;
    const room = request.batchSize - eventsDeleted;
    // The row cap counts what ages out first: it waits until no aged event is left.
    if (useWorker && own.capLeft && !own.agedLeft && room > 0) {
      wal.written(own.rowsRemoved, false);
      const capped = await gate.hold(worker.cap({ maxRows: request.maxRows, limit: room }, (read) => planCapWrites(current(), read, request.now)));
      eventsDeleted += capped.deleted;
      const done = own.restDone && !capped.capLeft;
      wal.written(capped.sessions + Math.ceil(capped.deleted / EVENTS_PER_PAGE), done);
      return { batch: { eventsDeleted, expiredCursors, done, ...carried() }, removed: removed + capped.deleted };
    }
    wal.written(own.rowsRemoved, own.batch.done);
    const full = request.batchSize <= Math.max(eventsDeleted, expiredCursors.length, journalDeleted);
    if (own.batch.done || full || own.rowsRemoved === 0) return { batch: { eventsDeleted, expiredCursors, done: own.batch.done, ...carried() }, removed };
    await nextTurn();
  }
}

/** Calls in a row from the same journal position that deleted nothing before the store says `done`. */
export const PRUNE_CALLS_WITHOUT_PROGRESS = 3;

/** The guard against prune calls that repeat themselves without progress. */
export function createPruneProgress(logger: Logger) {
  // The calls in a row that deleted nothing, were not done and started where the one before did.
  let calls = 0;
  let lastStart: number | undefined;
  return {
    /** The batch as the caller gets it: `done` once PRUNE_CALLS_WITHOUT_PROGRESS calls repeated themselves without progress (logged once a streak). */
    settle(request: PruneRequest, batch: PruneBatch, removed: number): PruneBatch {
      const start = request.journalAfter ?? 0;
      if (removed > 0 || batch.done) {
        calls = 0;
        lastStart = undefined;
        return batch;
      }
      calls = start === lastStart ? calls + 1 : 1;
      lastStart = start;
      if (calls < PRUNE_CALLS_WITHOUT_PROGRESS) return batch;
      if (calls === PRUNE_CALLS_WITHOUT_PROGRESS) logger.warn({ operation: 'prune', calls, journalAfter: start }, 'prune: calls from the same journal position deleted nothing (the entries there must stay), so the run is reported done');
      return { ...batch, done: true };
    },
  };
}
