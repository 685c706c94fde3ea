// The storage port: everything the facade persists, as whole operations, each one transaction.
import type { CursorRow } from '../log/append.js';
import type { CursorJournalEntry } from '../cursor/journal.js';
import type { Notice } from '../notice.js';
import type { Sequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';
import type { OverviewLimits, StoreOverview } from './storeOverview.js';
import type { ListenForCursorSignals } from './cursorSignals.port.js';
import type {
  AppendBatch,
  AppendOutcome,
  ChangesPage,
  CursorFilter,
  CursorPair,
  DrainAck,
  DrainOutcome,
  HeadRow,
  PruneBatch,
  PrunePreview,
  PruneRequest,
  AcknowledgeReadOutcome,
  AcknowledgeReadRequest,
  SessionChangesPage,
  VacuumResult,
  WatchRequest,
} from './storeTypes.js';

export * from './storeTypes.js';

export interface StateStore {
  /** Appends a batch (group commit), in order, each item isolated, one outcome per item; a heading drain runs first, as `drain`. */
  append(batch: AppendBatch): Promise<readonly AppendOutcome[]>;

  /** Creates the cursor at the target's current head unless the pair has one (`planWatch`). */
  watch(request: WatchRequest): Promise<{ readonly created: boolean }>;

  /** Retained events after `since` (ascending, at most `limit`) with the head they were read under. */
  readChanges(sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage>;

  /** Optional `readChanges` with each event as `toSessionEvent` maps it. */
  readSessionChanges?(sessionKey: SessionKey, since: Sequence, limit: number): Promise<SessionChangesPage>;

  /** Head rows for the keys that have one, in the order the keys were first given; all, by session key, when omitted. */
  readHeads(sessionKeys?: readonly SessionKey[]): Promise<readonly HeadRow[]>;

  /** Cursors matching the filter (all when empty), ordered by watcher then target. */
  listCursors(filter?: CursorFilter): Promise<readonly CursorRow[]>;

  /** The journal entries of the pairs matching the filter, in position order. */
  readCursorJournal(filter?: CursorFilter): Promise<readonly CursorJournalEntry[]>;

  /** Drain, atomically for all acks, as `planDrain` plans it. */
  drain(watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<readonly DrainOutcome[]>;

  /** The watcher's reconcile read reached the head: `planAcknowledgeRead` in one transaction. */
  acknowledgeRead(request: AcknowledgeReadRequest): Promise<AcknowledgeReadOutcome>;

  /** The restart scan at gateway start (`planRestartScan`), one notice per pending owned pair; never on a live queue. */
  restartScan(now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]>;

  /** The notice each pending cursor holds (`planHeldNotices`); writes nothing. */
  pendingNotices(owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<readonly Notice[]>;

  /** Optional: how many cursors are pending, counted without reading them. */
  countPendingCursors?(): Promise<number>;

  /** Optional, for the inspector: the store's overview, as `overviewOf` states it. */
  readOverview?(limits: OverviewLimits): Promise<StoreOverview>;

  /** Removes every cursor whose watcher is `watcher` (`planRemoval`, reset). */
  resetWatcher(watcher: SessionKey, now: number): Promise<readonly CursorPair[]>;

  /** Removes the pair's cursor, if it has one (`planRemoval`, unwatched). */
  unwatch(watcher: SessionKey, target: SessionKey, now: number): Promise<{ readonly removed: boolean }>;

  /** Removes the session's events and cursors (`planRemoval`, deleted); its head stays as a tombstone. */
  deleteSession(sessionKey: SessionKey, now: number): Promise<{ readonly eventsDeleted: number; readonly removedCursors: readonly CursorPair[] }>;

  /** One bounded batch of retention: events, idle cursors, `planPruneMaterial`, then `planJournalPrune`. */
  prune(request: PruneRequest): Promise<PruneBatch>;

  /** Optional: what `prune` run to completion would delete and expire, counted without writing. */
  previewPrune?(request: PruneRequest): Promise<PrunePreview>;

  /** Optional: how many events each prune batch takes; absent, the facade sizes batches by time. */
  readonly pruneBatchRows?: number;

  /** Optional: gives the space pruned rows left back, and reports the size before and after. */
  vacuum?(): Promise<VacuumResult>;

  /** Optional, for stores several processes share: signals commits made through another handle. */
  listen?: ListenForCursorSignals;

  close(): Promise<void>;
}

/** Every required method of the port but `close`; it fails to compile when one is missing. */
export const STORE_OPERATIONS = [
  'append',
  'watch',
  'readChanges',
  'readHeads',
  'listCursors',
  'drain',
  'acknowledgeRead',
  'readCursorJournal',
  'restartScan',
  'pendingNotices',
  'resetWatcher',
  'unwatch',
  'deleteSession',
  'prune',
] as const satisfies readonly StoreOperation[];

/** A required method of the port other than `close`. */
export type StoreOperation = Exclude<keyof StateStore, 'close' | 'readSessionChanges' | 'listen' | 'countPendingCursors' | 'readOverview' | 'previewPrune' | 'vacuum' | 'pruneBatchRows'>;

const everyOperationListed: [Exclude<StoreOperation, (typeof STORE_OPERATIONS)[number]>] extends [never] ? true : false = true;
void everyOperationListed;
