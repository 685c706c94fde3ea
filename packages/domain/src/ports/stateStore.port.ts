// The storage port: everything the facade persists, as whole operations, each one transaction.
import type { CursorRow } from '../log/append.js';
import type { CursorJournalEntry } from '../cursor/journal.js';
import type { Sequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';
import type { AppendBatch, AppendOutcome, ChangesPage, CursorFilter, CursorPair, DrainOutcome, DrainRequest, HeadRow } from './storeTypes.js';
import type { PruneBatch, PruneRequest, ScanPage, ScanRequest, AcknowledgeReadOutcome, AcknowledgeReadRequest, WatchRequest } from './storeTypes.js';

export * from './storeTypes.js';

export interface StateStore {
  /** Appends a batch (group commit), in order, each item isolated, one outcome per item; a heading drain runs first, as `drain`. */
  append(batch: AppendBatch): Promise<readonly AppendOutcome[]>;

  /** Creates the cursor at the target's current head unless the pair has one (`planWatch`). */
  watch(request: WatchRequest): Promise<{ readonly created: boolean }>;

  /** Retained events after `since` (ascending, at most `limit`) with the head they were read under. */
  readChanges(sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage>;

  /** Head rows for the keys that have one, in the order the keys were first given; all, by session key, when omitted. */
  readHeads(sessionKeys?: readonly SessionKey[]): Promise<readonly HeadRow[]>;

  /** Cursors matching the filter (all when empty), ordered by watcher then target. */
  listCursors(filter?: CursorFilter): Promise<readonly CursorRow[]>;

  /** The journal entries of the pairs matching the filter, in position order. */
  readCursorJournal(filter?: CursorFilter): Promise<readonly CursorJournalEntry[]>;

  /** Drain (acknowledge) or, with `takenUntil`, take the watcher's notices, atomically for all acks, as `planDrain` plans it. */
  drain(request: DrainRequest): Promise<readonly DrainOutcome[]>;

  /** The watcher's reconcile read reached the head: `planAcknowledgeRead` in one transaction. */
  acknowledgeRead(request: AcknowledgeReadRequest): Promise<AcknowledgeReadOutcome>;

  /** One page of pending cursors in pair order: with `raise`, the restart scan, never on a live queue; without, their held notices, writing nothing (`planScan`). */
  scanPending(request: ScanRequest): Promise<ScanPage>;

  /** Removes every cursor whose watcher is `watcher` (`planRemoval`, reset). */
  resetWatcher(watcher: SessionKey, now: number): Promise<readonly CursorPair[]>;

  /** Removes the pair's cursor, if it has one (`planRemoval`, unwatched). */
  unwatch(watcher: SessionKey, target: SessionKey, now: number): Promise<{ readonly removed: boolean }>;

  /** Removes the session's events and cursors (`planRemoval`, deleted); its head stays as a tombstone. */
  deleteSession(sessionKey: SessionKey, now: number): Promise<{ readonly eventsDeleted: number; readonly removedCursors: readonly CursorPair[] }>;

  /** One bounded batch of retention: events, idle cursors, `planPruneMaterial`, then `planJournalPrune`. */
  prune(request: PruneRequest): Promise<PruneBatch>;

  close(): Promise<void>;
}

/** Every required method of the port but `close`; it fails to compile when one is missing. */
export const STORE_OPERATIONS = [
  'append', 'watch', 'readChanges', 'readHeads', 'listCursors', 'drain', 'acknowledgeRead', 'readCursorJournal',
  'scanPending', 'resetWatcher', 'unwatch', 'deleteSession', 'prune',
] as const satisfies readonly StoreOperation[];

export type StoreOperation = Exclude<keyof StateStore, 'close'>;

const everyOperationListed: [Exclude<StoreOperation, (typeof STORE_OPERATIONS)[number]>] extends [never] ? true : false = true;
void everyOperationListed;
