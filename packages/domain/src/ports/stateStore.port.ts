// The storage port: everything the facade persists, as whole operations, each one transaction; its requests, outcomes and error.
import type { CursorJournalEntry } from '../cursor/journal.js';
import type { AppendCommand } from '../input/recordInput.js';
import type { SessionKey } from '../input/sessionKey.js';
import type { CursorRow } from '../log/append.js';
import type { SessionEvent, StoredEvent } from '../log/event.js';
import type { Sequence } from '../log/sequence.js';
import type { SignalLogHead } from '../log/signalLog.js';
import type { Notice } from '../notice.js';

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

/** A storage failure, tagged so the app recognises it without importing an adapter. */
export interface StoreError {
  readonly _tag: 'StoreError';
  /** The port method that failed, e.g. `append`. */
  readonly operation: string;
  readonly message: string;
  readonly cause?: unknown;
}

/** Wraps what a driver threw as a StoreError of `operation`, with the real cause's own message. */
export function storeError(operation: string, cause: unknown): StoreError {
  return { _tag: 'StoreError', operation, message: failureMessage(cause), cause };
}

/** The message of anything thrown (never `[object Object]`); never throws, whatever `cause` is. */
export function failureMessage(cause: unknown): string {
  try {
    if (typeof cause === 'string') return cause;
    if (cause instanceof Error || isStoreError(cause)) return String(cause.message);
    if (typeof cause === 'object' && cause !== null) {
      const message = (cause as { readonly message?: unknown }).message;
      return typeof message === 'string' ? message : 'a thrown object without a message';
    }
    return typeof cause === 'symbol' ? 'a thrown symbol' : String(cause);
  } catch {
    return `a thrown ${typeof cause} that could not be read`;
  }
}

export function isStoreError(value: unknown): value is StoreError {
  return typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'StoreError';
}

export interface AppendRequest {
  readonly command: AppendCommand;
  /** Clock time of the append; retention ages are measured from it. */
  readonly appendedAt: number;
  /** Spawn edge: seed this watcher's cursor on `command.sessionKey` at the new event. */
  readonly seedWatcher?: SessionKey;
}

export type AppendOutcome =
  | { readonly type: 'appended'; readonly event: StoredEvent; readonly notices: readonly Notice[] }
  /** The dedupe key already existed: the stored event is returned and nothing changed. */
  | { readonly type: 'duplicate'; readonly event: StoredEvent }
  /** `onlyIfWatched` and no cursor targets the session: nothing written. */
  | { readonly type: 'skipped'; readonly reason: 'unwatched' }
  /** This request failed alone; the others of the batch are unaffected. */
  | { readonly type: 'failed'; readonly error: StoreError }
  /** The drain heading the batch committed (its failure is `failed`, naming `drain`). */
  | { readonly type: 'drained'; readonly outcomes: readonly DrainOutcome[] };

export interface HeadRow extends SignalLogHead {
  readonly sessionKey: SessionKey;
}

export interface ChangesPage {
  /** Read in the same snapshot as `events`, as `earliestRetained` is: the session's lowest retained sequence whatever `since` (0 when none). */
  readonly head: SignalLogHead;
  /** Retained events with sequence > since, ascending, at most `limit`, in their public shape. */
  readonly events: readonly SessionEvent[];
  readonly hasMore: boolean;
  readonly earliestRetained: Sequence;
}

export type CursorFilter = Partial<CursorPair>;

export interface WatchRequest extends CursorPair {
  readonly now: number;
  /** An ambient watch: its notices wake nobody until an explicit watch of the pair promotes it. */
  readonly ambient?: boolean;
}

export interface DrainAck {
  readonly target: SessionKey;
  /** The frozen watermark of the notice being consumed (compare-and-swap). */
  readonly notified: Sequence;
}

export type DrainOutcome =
  | { readonly target: SessionKey; readonly result: 'acked'; readonly acked: Sequence; readonly reopened?: Notice }
  | { readonly target: SessionKey; readonly result: 'taken'; readonly notice: Notice }
  | { readonly target: SessionKey; readonly result: 'stale'; readonly pending?: Notice };

export interface DrainRequest {
  readonly watcher: SessionKey;
  readonly acks: readonly DrainAck[];
  readonly now: number;
  /** A take: each notice is leased until this clock time instead of acknowledged. */
  readonly takenUntil?: number;
}

/** A drain heading an append batch: it runs before the appends and fails alone. */
export type DrainItem = DrainRequest & { readonly type: 'drain' };

/** What `StateStore.append` takes: appends, headed by at most one drain. */
export type AppendBatch = readonly AppendRequest[] | readonly [DrainItem, ...AppendRequest[]];

/** The drain heading `batch`, if any, and its appends. */
export function splitBatch(batch: AppendBatch): { readonly drain: DrainItem | undefined; readonly appends: readonly AppendRequest[] } {
  const head = batch[0];
  return head !== undefined && 'type' in head ? { drain: head, appends: batch.slice(1) as readonly AppendRequest[] } : { drain: undefined, appends: batch as readonly AppendRequest[] };
}

/** `run`'s outcome, or `failed` with what it threw as a StoreError naming `operation`. */
export function isolatedOutcome(operation: string, run: () => AppendOutcome): AppendOutcome {
  try {
    return run();
  } catch (cause) {
    return { type: 'failed', error: storeError(operation, cause) };
  }
}

/** `watcher` read `target`'s changes after `since` up to its head `through` (read in the same snapshot). */
export interface AcknowledgeReadRequest extends CursorPair {
  readonly since: Sequence;
  readonly through: Sequence;
  readonly now: number;
}

export type AcknowledgeReadOutcome =
  | { readonly acknowledged: false }
  | { readonly acknowledged: true; readonly acked: Sequence; readonly reopened?: Notice };

/** A (watcher, target) pair whose cursor was removed; the app drops its queued notice. */
export interface CursorPair {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
}

/** One page of `scanPending`: pending cursors after `after`, in pair order. */
export interface ScanRequest {
  /** The page starts after this pair; at the first pair when absent. */
  readonly after?: CursorPair;
  /** Pending cursors the page reads, at most: a positive integer. */
  readonly limit: number;
  /** The restart scan: each owned cursor read has notified raised to material, journalled, at `now`; absent, nothing is written. */
  readonly raise?: { readonly now: number };
  /** Only cursors whose watcher passes it give notices, when given. */
  readonly owns?: (watcher: SessionKey) => boolean;
  /** Only cursors on these targets, when given (an empty list gives none). */
  readonly targets?: readonly SessionKey[];
}

export interface ScanPage {
  /** One notice per owned pending pair read, in pair order. */
  readonly notices: readonly Notice[];
  /** Where the next page starts; absent when this page read fewer than `limit` cursors. */
  readonly next?: CursorPair;
}

export interface PruneRequest {
  readonly now: number;
  /** Events (and journal entries) older than this are deleted. */
  readonly maxAgeMs: number;
  readonly maxRows: number;
  /** Cursors untouched for longer expire; `maxAgeMs` when absent. */
  readonly cursorMaxAgeMs?: number;
  /** At most this many events are deleted by one call. */
  readonly batchSize: number;
  /** The batch examines the journal entries after this position (`PruneBatch.journalAfter`; 0: from the start). */
  readonly journalAfter?: number;
}

export interface PruneBatch {
  readonly eventsDeleted: number;
  readonly expiredCursors: readonly CursorPair[];
  /** True when nothing the run could see is left to prune (see `journalWindowEnd` for the journal). */
  readonly done: boolean;
  /** The position the run's next batch passes as `PruneRequest.journalAfter`. */
  readonly journalAfter?: number;
}
