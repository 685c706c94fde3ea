// The StateStore port over an adapter's operations: clocks floored to whole ms, every failure a StoreError rejection naming the method.
import { assertOverviewLimits, assertScanLimit, splitBatch, storeError, type AppendBatch, type CursorSignalSource, type DrainRequest, type ListenForCursorSignals, type OverviewSource, type StateStore, type StoreMaintenance, type StoreOperation } from '@session-state/domain';

/** A drain's clock readings floored to whole ms. */
const drainWholeMs = <D extends DrainRequest>(drain: D): D => ({ ...drain, now: Math.floor(drain.now), ...(drain.takenUntil !== undefined ? { takenUntil: Math.floor(drain.takenUntil) } : {}) });

/** The batch with each `appendedAt` (and a heading drain's clock readings) floored (a non-finite one is left for the store to refuse). */
function withWholeMs(batch: AppendBatch): AppendBatch {
  const { drain, appends } = splitBatch(batch);
  if (drain === undefined && appends.every((request) => Number.isInteger(request.appendedAt))) return batch;
  const floored = appends.map((request) => (Number.isInteger(request.appendedAt) ? request : { ...request, appendedAt: Math.floor(request.appendedAt) }));
  return drain === undefined ? floored : [drainWholeMs(drain), ...floored];
}

type Answer<T> = T | Promise<T>;

/** A port method as an adapter writes it: its open database first, answering synchronously or with a promise. */
type OnDb<Db, F> = F extends (...args: infer A) => Promise<infer R> ? (db: Db, ...args: A) => Answer<R> : never;

/** The store with the capabilities every SQL store offers beside the port. */
type SqlStore = StateStore & OverviewSource & StoreMaintenance;

/** One adapter's operations: the port's and its capabilities', each over `Db` with whole-millisecond clocks; `close` takes no database, so closing never re-opens one. */
export type StoreOperations<Db> = { readonly [K in StoreOperation | 'readOverview' | 'previewPrune']: OnDb<Db, SqlStore[K]> } & {
  readonly vacuum?: OnDb<Db, NonNullable<StoreMaintenance['vacuum']>>;
  close(): Answer<void>;
};

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

/** The store of `ops` over the database `current()` returns at each call (an adapter may replace it); with `listen`, it also signals commits made through another handle. */
export function storePort<Db>(current: () => Db, ops: StoreOperations<Db>, listen: ListenForCursorSignals): SqlStore & CursorSignalSource;
export function storePort<Db>(current: () => Db, ops: StoreOperations<Db>, listen?: ListenForCursorSignals): SqlStore & Partial<CursorSignalSource>;
export function storePort<Db>(current: () => Db, ops: StoreOperations<Db>, listen?: ListenForCursorSignals): SqlStore & Partial<CursorSignalSource> {
  return {
    append: (batch) => call('append', () => ops.append(current(), withWholeMs(batch))),
    watch: (request) => call('watch', () => ops.watch(current(), { ...request, now: Math.floor(request.now) })),
    readChanges: (sessionKey, since, limit) => call('readChanges', () => ops.readChanges(current(), sessionKey, since, limit)),
    readHeads: (sessionKeys) => call('readHeads', () => ops.readHeads(current(), sessionKeys)),
    listCursors: (filter) => call('listCursors', () => ops.listCursors(current(), filter)),
    readCursorJournal: (filter) => call('readCursorJournal', () => ops.readCursorJournal(current(), filter)),
    drain: (request) => call('drain', () => ops.drain(current(), drainWholeMs(request))),
    acknowledgeRead: (request) => call('acknowledgeRead', () => ops.acknowledgeRead(current(), { ...request, now: Math.floor(request.now) })),
    scanPending: (request) =>
      call('scanPending', () => {
        assertScanLimit(request.limit);
        return ops.scanPending(current(), request.raise === undefined ? request : { ...request, raise: { now: Math.floor(request.raise.now) } });
      }),
    readOverview: (limits) =>
      call('readOverview', () => {
        assertOverviewLimits(limits);
        return ops.readOverview(current(), limits);
      }),
    resetWatcher: (watcher, now) => call('resetWatcher', () => ops.resetWatcher(current(), watcher, Math.floor(now))),
    unwatch: (watcher, target, now) => call('unwatch', () => ops.unwatch(current(), watcher, target, Math.floor(now))),
    deleteSession: (sessionKey, now) => call('deleteSession', () => ops.deleteSession(current(), sessionKey, Math.floor(now))),
    prune: (request) => call('prune', () => ops.prune(current(), { ...request, now: Math.floor(request.now) })),
    previewPrune: (request) => call('previewPrune', () => ops.previewPrune(current(), { ...request, now: Math.floor(request.now) })),
    ...(ops.vacuum !== undefined ? { vacuum: () => call('vacuum', () => (ops.vacuum as NonNullable<typeof ops.vacuum>)(current())) } : {}),
    ...(listen !== undefined ? { listen } : {}),
    close: () => call('close', () => ops.close()),
  };
}
