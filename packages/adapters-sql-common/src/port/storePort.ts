// The StateStore port over an adapter's operations (answering synchronously or with a promise):
// clocks floored to whole milliseconds, every failure a StoreError rejection naming the method.
import { assertOverviewLimits, splitBatch, storeError, type AppendBatch, type AppendOutcome, type ChangesPage, type CursorFilter, type CursorJournalEntry, type CursorPair, type CursorRow, type DrainAck, type DrainOutcome, type HeadRow, type ListenForCursorSignals, type OverviewLimits, type StoreOverview, type Notice, type PruneBatch, type PrunePreview, type PruneRequest, type AcknowledgeReadOutcome, type AcknowledgeReadRequest, type VacuumResult, type Sequence, type SessionChangesPage, type SessionKey, type StateStore, type WatchRequest } from '@session-state/domain';

/** `ms` floored to a whole millisecond (a non-finite value is left for the store to refuse). */
export function wholeMs(ms: number): number {
  return Math.floor(ms);
}

/** The batch with each `appendedAt` (and a heading drain's `now`) floored; the same array when every one is whole already. */
export function withWholeMs(batch: AppendBatch): AppendBatch {
  const { drain, appends } = splitBatch(batch);
  if ((drain === undefined || Number.isInteger(drain.now)) && appends.every((request) => Number.isInteger(request.appendedAt))) return batch;
  const floored = appends.map((request) => (Number.isInteger(request.appendedAt) ? request : { ...request, appendedAt: wholeMs(request.appendedAt) }));
  return drain === undefined ? floored : [{ ...drain, now: wholeMs(drain.now) }, ...floored];
}

type Answer<T> = T | Promise<T>;
type Owns = (watcher: SessionKey) => boolean;

/** One adapter's operations (the optional ones as the port's), each taking its open database first and whole-millisecond clocks. */
export interface StoreOperations<Db> {
  append(db: Db, batch: AppendBatch): Answer<readonly AppendOutcome[]>;
  watch(db: Db, request: WatchRequest): Answer<{ readonly created: boolean }>;
  readChanges(db: Db, sessionKey: SessionKey, since: Sequence, limit: number): Answer<ChangesPage>;
  readSessionChanges(db: Db, sessionKey: SessionKey, since: Sequence, limit: number): Answer<SessionChangesPage>;
  readHeads(db: Db, sessionKeys?: readonly SessionKey[]): Answer<readonly HeadRow[]>;
  listCursors(db: Db, filter?: CursorFilter): Answer<readonly CursorRow[]>;
  readCursorJournal(db: Db, filter?: CursorFilter): Answer<readonly CursorJournalEntry[]>;
  drain(db: Db, watcher: SessionKey, acks: readonly DrainAck[], now: number): Answer<readonly DrainOutcome[]>;
  acknowledgeRead(db: Db, request: AcknowledgeReadRequest): Answer<AcknowledgeReadOutcome>;
  restartScan(db: Db, now: number, owns?: Owns): Answer<readonly Notice[]>;
  pendingNotices(db: Db, owns?: Owns, targets?: readonly SessionKey[]): Answer<readonly Notice[]>;
  countPendingCursors(db: Db): Answer<number>;
  /** `limits` are checked before it runs. */
  readOverview(db: Db, limits: OverviewLimits): Answer<StoreOverview>;
  resetWatcher(db: Db, watcher: SessionKey, now: number): Answer<readonly CursorPair[]>;
  unwatch(db: Db, watcher: SessionKey, target: SessionKey, now: number): Answer<{ readonly removed: boolean }>;
  deleteSession(db: Db, sessionKey: SessionKey, now: number): Answer<{ readonly eventsDeleted: number; readonly removedCursors: readonly CursorPair[] }>;
  prune(db: Db, request: PruneRequest): Answer<PruneBatch>;
  previewPrune?(db: Db, request: PruneRequest): Answer<PrunePreview>;
  vacuum?(db: Db): Answer<VacuumResult>;
  /** Takes no database, so closing never re-opens or refreshes one. */
  close(): Answer<void>;
  readonly pruneBatchRows?: number;
}

/** Runs `work`, turning a throw or a rejection into a StoreError rejection naming `operation`. */
function call<T>(operation: string, work: () => Answer<T>): Promise<T> {
  try {
    const answer = work();
    if (!(answer instanceof Promise)) return Promise.resolve(answer);
    return answer.catch((e: unknown) => Promise.reject(storeError(operation, e)));
  } catch (e) {
    return Promise.reject(storeError(operation, e));
  }
}

/** The port's `previewPrune` over the adapter's: whole-ms `now`, StoreError rejections. */
function previewPort<Db>(operation: string, preview: NonNullable<StoreOperations<Db>['previewPrune']>, current: () => Db): (request: PruneRequest) => Promise<PrunePreview> {
  return (request) => call(operation, () => preview(current(), { ...request, now: wholeMs(request.now) }));
}

/** The StateStore of `ops` over the database `current()` returns at each call (an adapter may replace it); `listen` for cross-process signals. */
export function storePort<Db>(current: () => Db, ops: StoreOperations<Db>, listen?: ListenForCursorSignals): StateStore {
  return {
    append: (batch) => call('append', () => ops.append(current(), withWholeMs(batch))),
    watch: (request) => call('watch', () => ops.watch(current(), { ...request, now: wholeMs(request.now) })),
    readChanges: (sessionKey, since, limit) => call('readChanges', () => ops.readChanges(current(), sessionKey, since, limit)),
    readSessionChanges: (sessionKey, since, limit) => call('readSessionChanges', () => ops.readSessionChanges(current(), sessionKey, since, limit)),
    readHeads: (sessionKeys) => call('readHeads', () => ops.readHeads(current(), sessionKeys)),
    listCursors: (filter) => call('listCursors', () => ops.listCursors(current(), filter)),
    readCursorJournal: (filter) => call('readCursorJournal', () => ops.readCursorJournal(current(), filter)),
    drain: (watcher, acks, now) => call('drain', () => ops.drain(current(), watcher, acks, wholeMs(now))),
    acknowledgeRead: (request) => call('acknowledgeRead', () => ops.acknowledgeRead(current(), { ...request, now: wholeMs(request.now) })),
    restartScan: (now, owns) => call('restartScan', () => ops.restartScan(current(), wholeMs(now), owns)),
    pendingNotices: (owns, targets) => call('pendingNotices', () => ops.pendingNotices(current(), owns, targets)),
    countPendingCursors: () => call('countPendingCursors', () => ops.countPendingCursors(current())),
    readOverview: (limits) =>
      call('readOverview', () => {
        assertOverviewLimits(limits);
        return ops.readOverview(current(), limits);
      }),
    resetWatcher: (watcher, now) => call('resetWatcher', () => ops.resetWatcher(current(), watcher, wholeMs(now))),
    unwatch: (watcher, target, now) => call('unwatch', () => ops.unwatch(current(), watcher, target, wholeMs(now))),
    deleteSession: (sessionKey, now) => call('deleteSession', () => ops.deleteSession(current(), sessionKey, wholeMs(now))),
    prune: (request) => call('prune', () => ops.prune(current(), { ...request, now: wholeMs(request.now) })),
    ...(ops.previewPrune !== undefined ? { previewPrune: previewPort('previewPrune', ops.previewPrune, current) } : {}),
    ...(ops.vacuum !== undefined ? { vacuum: () => call('vacuum', () => (ops.vacuum as NonNullable<typeof ops.vacuum>)(current())) } : {}),
    ...(listen !== undefined ? { listen } : {}),
    ...(ops.pruneBatchRows !== undefined ? { pruneBatchRows: ops.pruneBatchRows } : {}),
    close: () => call('close', () => ops.close()),
  };
}
