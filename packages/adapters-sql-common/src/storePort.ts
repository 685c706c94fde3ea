// The StateStore port over an adapter's operations, wired once for both SQL adapters: every
// clock reading is floored to whole milliseconds before an operation sees it (clockMs.ts), and
// every failure becomes a rejection with a tagged StoreError naming the port method. An
// operation may answer synchronously (SQLite) or with a promise (PostgreSQL).
import {
  assertOverviewLimits,
  storeError,
  type AppendOutcome,
  type AppendRequest,
  type ChangesPage,
  type CorruptRowInfo,
  type CursorFilter,
  type CursorJournalEntry,
  type CursorPair,
  type CursorRow,
  type DrainAck,
  type DrainOutcome,
  type DrainRequest,
  type DrainThenAppendResult,
  type HeadRow,
  type ListenForCursorSignals,
  type OverviewLimits,
  type StoreOverview,
  type Notice,
  type PruneBatch,
  type PrunePreview,
  type PruneRequest,
  type AcknowledgeReadOutcome,
  type AcknowledgeReadRequest,
  type VacuumResult,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
  type StateStore,
  type WatchRequest,
} from '@session-state/domain';

import { wholeMs, withWholeMs } from './clockMs.js';

type Answer<T> = T | Promise<T>;
type Owns = (watcher: SessionKey) => boolean;

/**
 * One adapter's operations, each taking the adapter's open database first; each `now` and
 * `appendedAt` it is given is a whole millisecond.
 */
export interface StoreOperations<Db> {
  append(db: Db, batch: readonly AppendRequest[]): Answer<readonly AppendOutcome[]>;
  watch(db: Db, request: WatchRequest): Answer<{ readonly created: boolean }>;
  readChanges(db: Db, sessionKey: SessionKey, since: Sequence, limit: number): Answer<ChangesPage>;
  readSessionChanges(db: Db, sessionKey: SessionKey, since: Sequence, limit: number): Answer<SessionChangesPage>;
  readHeads(db: Db, sessionKeys?: readonly SessionKey[]): Answer<readonly HeadRow[]>;
  listCursors(db: Db, filter?: CursorFilter): Answer<readonly CursorRow[]>;
  readCursorJournal(db: Db, filter?: CursorFilter): Answer<readonly CursorJournalEntry[]>;
  drain(db: Db, watcher: SessionKey, acks: readonly DrainAck[], now: number): Answer<readonly DrainOutcome[]>;
  /** Optional (see StateStore.drainThenAppend). */
  drainThenAppend?(db: Db, drain: DrainRequest, batch: readonly AppendRequest[]): Answer<DrainThenAppendResult>;
  acknowledgeRead(db: Db, request: AcknowledgeReadRequest): Answer<AcknowledgeReadOutcome>;
  restartScan(db: Db, now: number, owns?: Owns): Answer<readonly Notice[]>;
  pendingNotices(db: Db, owns?: Owns, targets?: readonly SessionKey[]): Answer<readonly Notice[]>;
  countPendingCursors(db: Db): Answer<number>;
  /** See StateStore.readOverview; `limits` are checked (assertOverviewLimits) before it runs. */
  readOverview(db: Db, limits: OverviewLimits): Answer<StoreOverview>;
  resetWatcher(db: Db, watcher: SessionKey, now: number): Answer<readonly CursorPair[]>;
  unwatch(db: Db, watcher: SessionKey, target: SessionKey, now: number): Answer<{ readonly removed: boolean }>;
  deleteSession(db: Db, sessionKey: SessionKey, now: number): Answer<{ readonly eventsDeleted: number; readonly removedCursors: readonly CursorPair[] }>;
  prune(db: Db, request: PruneRequest): Answer<PruneBatch>;
  /** Optional (see StateStore.previewPrune). */
  previewPrune?(db: Db, request: PruneRequest): Answer<PrunePreview>;
  /** Optional (see StateStore.vacuum). */
  vacuum?(db: Db): Answer<VacuumResult>;
  /** Closes the store; it takes no database, so closing never re-opens or refreshes one. */
  close(): Answer<void>;
  /** Optional: the port's `pruneBatchRows` (see StateStore.pruneBatchRows); absent for a store that works synchronously. */
  readonly pruneBatchRows?: number;
}

/** Runs `work`, turning a throw or a rejection into a StoreError rejection naming `operation`. */
function call<T>(operation: string, work: () => Answer<T>): Promise<T> {
  try {
    const answer = work();
    // A synchronous answer costs one resolved promise, as a hand-written async wrapper would.
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

/** The port's `drainThenAppend` over the adapter's: whole-ms clocks, a StoreError rejection naming `append` (the transaction failed: neither was kept) or a drain failure naming `drain`. */
function drainThenAppendPort<Db>(
  both: NonNullable<StoreOperations<Db>['drainThenAppend']>,
  current: () => Db,
): (drain: DrainRequest, batch: readonly AppendRequest[]) => Promise<DrainThenAppendResult> {
  return async (drain, batch) => {
    const result = await call('append', () => both(current(), { ...drain, now: wholeMs(drain.now) }, withWholeMs(batch)));
    return result.drained.ok ? result : { ...result, drained: { ok: false, error: storeError('drain', result.drained.error) } };
  };
}

/**
 * The StateStore of `ops` over the database `current()` returns at each call (an adapter may
 * replace its database, e.g. SQLite's read-only snapshot of a file that changed); `listen` when
 * the store has cross-process signals.
 *
 * @example return storePort(() => db, { append: appendEvents, watch, … });
 */
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
    ...(ops.drainThenAppend !== undefined ? { drainThenAppend: drainThenAppendPort(ops.drainThenAppend, current) } : {}),
    ...(ops.previewPrune !== undefined ? { previewPrune: previewPort('previewPrune', ops.previewPrune, current) } : {}),
    ...(ops.vacuum !== undefined ? { vacuum: () => call('vacuum', () => (ops.vacuum as NonNullable<typeof ops.vacuum>)(current())) } : {}),
    ...(listen !== undefined ? { listen } : {}),
    ...(ops.pruneBatchRows !== undefined ? { pruneBatchRows: ops.pruneBatchRows } : {}),
    close: () => call('close', () => ops.close()),
  };
}

/** The default `onCorruptRow` of a store: a console warning naming the row, never its content. */
export function warnCorruptRow(store: string): (info: CorruptRowInfo) => void {
  return (info) => {
    const where = info.sequence !== undefined ? ` (sequence ${info.sequence})` : '';
    console.warn(`session-state ${store}: skipped a corrupt ${info.table} row${where} in ${info.operation}: ${info.reason}`);
  };
}
