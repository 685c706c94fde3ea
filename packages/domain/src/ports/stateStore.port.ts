// The storage port: everything the facade persists, as whole operations so each one is one
// transaction in any adapter. Methods return promises so a server database (PostgreSQL) fits
// behind the same port; the SQLite adapter does its work synchronously inside them.
import type { CursorRow } from '../log/append.js';
import type { CursorJournalEntry } from '../cursor/journal.js';
import type { SessionEvent, StoredEvent } from '../log/event.js';
import type { Notice } from '../notice.js';
import type { AppendCommand } from '../input/recordInput.js';
import type { Sequence } from '../log/sequence.js';
import type { SessionKey } from '../input/sessionKey.js';
import type { SignalLogHead } from '../log/signalLog.js';
import type { OverviewLimits, StoreOverview } from './storeOverview.js';
import type { ListenForCursorSignals } from './cursorSignals.port.js';

// --- errors ------------------------------------------------------------------------------

/**
 * A storage failure, tagged so the app recognises it without importing an adapter. Adapters
 * reject with (or return, per append) one of these; any other thrown value is treated the same.
 */
export interface StoreError {
  readonly _tag: 'StoreError';
  /** The port method that failed, e.g. `append`. */
  readonly operation: string;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * Wraps what a driver threw (or a StoreError an inner call rejected with) as a StoreError of
 * `operation`; the message is the real cause's own message, never a wrapper's rendering of it.
 */
export function storeError(operation: string, cause: unknown): StoreError {
  return { _tag: 'StoreError', operation, message: failureMessage(cause), cause };
}

/**
 * The message of anything thrown: a StoreError's or an Error's own message, a thrown string as
 * is, otherwise a description by type (never `[object Object]`). Never throws, whatever `cause`
 * is (a revoked proxy, a throwing getter, an object without a prototype).
 */
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

// --- append ------------------------------------------------------------------------------

export interface AppendRequest {
  readonly command: AppendCommand;
  /** Clock time of the append; retention ages are measured from it. */
  readonly appendedAt: number;
  /** Spawn edge: seed this watcher's cursor on `command.sessionKey` at the new event. */
  readonly seedWatcher?: SessionKey;
}

export type AppendOutcome =
  /** Written; `notices` are what the target's cursors asked for (see `planAppend`). */
  | { readonly type: 'appended'; readonly event: StoredEvent; readonly notices: readonly Notice[] }
  /** The dedupe key already existed: the stored event is returned and nothing changed. */
  | { readonly type: 'duplicate'; readonly event: StoredEvent }
  /** `onlyIfWatched` and no cursor targets the session: nothing written. */
  | { readonly type: 'skipped'; readonly reason: 'unwatched' }
  /** This request failed alone; the others of the batch are unaffected. */
  | { readonly type: 'failed'; readonly error: StoreError };

// --- reads -------------------------------------------------------------------------------

export interface HeadRow extends SignalLogHead {
  readonly sessionKey: SessionKey;
}

export interface ChangesPage {
  /** The session's head and prune watermark, read in the same snapshot as `events`. */
  readonly head: SignalLogHead;
  /** Retained events with sequence > since, ascending, at most `limit`. */
  readonly events: readonly StoredEvent[];
  /** Whether more retained events follow the last one returned. */
  readonly hasMore: boolean;
}

/** A `ChangesPage` whose events are already in the `stateChanges` shape (see `toSessionEvent`). */
export interface SessionChangesPage {
  readonly head: SignalLogHead;
  readonly events: readonly SessionEvent[];
  readonly hasMore: boolean;
}

export interface CursorFilter {
  readonly watcher?: SessionKey;
  readonly target?: SessionKey;
}

// --- cursor writes -------------------------------------------------------------------------

export interface WatchRequest {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly now: number;
}

export interface DrainAck {
  readonly target: SessionKey;
  /** The frozen watermark of the notice being consumed (compare-and-swap). */
  readonly notified: Sequence;
}

export type DrainOutcome =
  | { readonly target: SessionKey; readonly result: 'acked'; readonly acked: Sequence; readonly reopened?: Notice }
  | { readonly target: SessionKey; readonly result: 'stale'; readonly pending?: Notice };

/** One drain, as `StateStore.drain` takes it. */
export interface DrainRequest {
  readonly watcher: SessionKey;
  readonly acks: readonly DrainAck[];
  readonly now: number;
}

/** What `StateStore.drainThenAppend` did: the drain's outcomes or its own failure, and one outcome per append. */
export interface DrainThenAppendResult {
  readonly drained: { readonly ok: true; readonly outcomes: readonly DrainOutcome[] } | { readonly ok: false; readonly error: unknown };
  readonly appended: readonly AppendOutcome[];
}

/**
 * A reconcile that reached the head (issue 15): `watcher` read `target`'s changes after `since`
 * up to its head `through` (the page's `stateVersion`, read in the same snapshot as its events).
 */
export interface ReadAckRequest {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly since: Sequence;
  readonly through: Sequence;
  readonly now: number;
}

/**
 * What a read acknowledged: nothing (no cursor, the read started above acked, or it ended at or
 * below acked), or the pair up to `acked`, with the `reopened` notice when changes had arrived
 * after the read.
 */
export type ReadAckOutcome =
  | { readonly acknowledged: false }
  | { readonly acknowledged: true; readonly acked: Sequence; readonly reopened?: Notice };

/** A (watcher, target) pair whose cursor was removed; the app drops its queued notice. */
export interface CursorPair {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
}

// --- retention -----------------------------------------------------------------------------

export interface PruneRequest {
  readonly now: number;
  /** Events appended (and journal entries recorded) more than this long before `now` are deleted. */
  readonly maxAgeMs: number;
  readonly maxRows: number;
  /**
   * Cursors untouched for more than this long before `now` expire; `maxAgeMs` when absent. A
   * pending cursor is touched when an event moves it, so with `cursorMaxAgeMs >= maxAgeMs` no
   * cursor expires before the events it points at; a smaller value may expire a pending one.
   */
  readonly cursorMaxAgeMs?: number;
  /** At most this many events are deleted by one call, so no call blocks for long. */
  readonly batchSize: number;
  /**
   * Where this batch resumes the journal's retention: it examines at most `batchSize` journal
   * entries, the first with positions above this one (0 or absent: from the start of the
   * journal). A prune run passes each batch's `PruneBatch.journalAfter` into the next request,
   * so one run walks the journal once, a bounded window per batch, whatever part of it cannot
   * be deleted (see PruneBatch.done); entries journalled meanwhile are walked too, so the run
   * ends as long as the journal grows by fewer entries per batch than a batch examines.
   */
  readonly journalAfter?: number;
}

export interface PruneBatch {
  readonly eventsDeleted: number;
  readonly expiredCursors: readonly CursorPair[];
  /**
   * True when nothing is left to prune for this request that the run could see: no event older
   * than the age limit or beyond the row cap, no cursor beyond its age limit, and, for the
   * journal, the run's windows reached the end of the journal, or the journal is within its cap
   * and no entry after the last one examined is older than the age limit. A journal entry
   * examined earlier in the run while it was the latest entry of a live pair, and removable
   * only since, is not seen again: a later run takes it.
   */
  readonly done: boolean;
  /**
   * The position the run's next batch passes as `PruneRequest.journalAfter` (absent from a
   * store that does not window its journal retention: the next batch starts from the start).
   */
  readonly journalAfter?: number;
}

/** What a prune request would do now, read without writing (see `StateStore.previewPrune`). */
export interface PrunePreview {
  /** Events the request would delete: those older than the age limit, then the oldest beyond the row cap. */
  readonly eventsToDelete: number;
  /** Cursors untouched beyond the cursor age limit, which the request would expire. */
  readonly cursorsToExpire: number;
}

/** The store's size before and after `StateStore.vacuum`, in bytes. */
export interface VacuumResult {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

// --- the port ------------------------------------------------------------------------------

export interface StateStore {
  /**
   * Appends a batch (group commit), in order, each request isolated: one failure fails only
   * itself. Per request, atomically: dedupe by key, `onlyIfWatched`, assign a sequence above
   * the head, insert, raise the head, and move (or seed) the target's cursors by `planAppend`.
   */
  append(batch: readonly AppendRequest[]): Promise<readonly AppendOutcome[]>;

  /** Creates the cursor at the target's current head unless the pair has one; `created` says which. */
  watch(request: WatchRequest): Promise<{ readonly created: boolean }>;

  /** Retained events after `since` (ascending, at most `limit`) with the head they were read under. */
  readChanges(sessionKey: SessionKey, since: Sequence, limit: number): Promise<ChangesPage>;

  /**
   * Optional lean `readChanges` for `status`: the same page with each event as `toSessionEvent`
   * maps it, so an adapter can skip the columns `status` never returns (session key, dedupe key,
   * append time). The facade uses `readChanges` when a store does not offer it.
   */
  readSessionChanges?(sessionKey: SessionKey, since: Sequence, limit: number): Promise<SessionChangesPage>;

  /**
   * Head rows for the keys that have one (a head above 0, or a tombstone), in the order the keys
   * were first given; every head row, ordered by session key, when `sessionKeys` is omitted.
   */
  readHeads(sessionKeys?: readonly SessionKey[]): Promise<readonly HeadRow[]>;

  /** Cursors matching the filter (all when empty), ordered by watcher then target. */
  listCursors(filter?: CursorFilter): Promise<readonly CursorRow[]>;

  /**
   * The cursor journal's entries for the pairs matching the filter (all when empty), ordered by
   * position (append order). Every store appends the entries its planners return in the same
   * transaction as the cursor rows; retention keeps the latest entry of every live pair.
   *
   * @example explainPair(await store.readCursorJournal({ watcher, target }), { watcher, target })
   */
  readCursorJournal(filter?: CursorFilter): Promise<readonly CursorJournalEntry[]>;

  /** Drain, atomically for all acks, as `planDrain` plans it. */
  drain(watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<readonly DrainOutcome[]>;

  /**
   * Optional: `drain`, then `append` of the batch, in one transaction (one commit), with the
   * outcomes the two calls made one after the other would have had. The drain stays all or
   * nothing and isolated: when it fails alone, it alone rolls back (`drained` holds its error) and
   * the appends go on, each isolated as in `append`. A failure of the transaction itself (the
   * connection, the commit) rejects: nothing of either was kept. The facade runs a drain and the
   * appends called after it this way when the store offers it (PostgreSQL: one commit, so one WAL
   * flush, where two calls wait for two).
   */
  drainThenAppend?(drain: DrainRequest, batch: readonly AppendRequest[]): Promise<DrainThenAppendResult>;

  /**
   * The watcher's reconcile read reached the head (`status` with `reader`): lock and read the
   * pair's cursor, plan (`planReadAck`), write the row and its `notice_read` entry in one
   * transaction. A store several processes share signals the target when it acknowledged, so
   * the owning gateway re-reads the pair's notice.
   */
  acknowledgeRead(request: ReadAckRequest): Promise<ReadAckOutcome>;

  /**
   * The restart scan, run once when a gateway starts: every cursor with material > acked (only
   * those whose watcher passes `owns`, when given) is planned by `planRestartScan`, which
   * raises `notified` to `material`; returns one notice per such pair, ordered by watcher then
   * target. Running it again changes nothing more. Never run it on a live notice queue: a
   * watcher may have read up to the old `notified` already, and the raised one would let its
   * drain acknowledge changes it never read (use `pendingNotices`). A store may scan in pages,
   * each in its own write transaction, yielding to the event loop between them (SQLite does):
   * each cursor's step depends on that cursor alone, so the result is that of one pass.
   */
  restartScan(now: number, owns?: (watcher: SessionKey) => boolean): Promise<readonly Notice[]>;

  /**
   * The notice each pending cursor (notified > acked, as `fromWatermarks` reads it) holds, by
   * `planHeldNotices` — only cursors whose watcher passes `owns`, when given, and only those on
   * `targets`, when given (each target once; an empty list gives none) — ordered by watcher
   * then target. Writes nothing and touches nothing: the notice covers the cursor's frozen
   * `notified`, so offering it again coalesces with the one queued and a drain acknowledges
   * exactly what it did before. A gateway answers cross-process signals and its resync timer
   * with it.
   *
   * @example const notices = await store.pendingNotices((watcher) => owned.has(watcher), [target]);
   */
  pendingNotices(owns?: (watcher: SessionKey) => boolean, targets?: readonly SessionKey[]): Promise<readonly Notice[]>;

  /**
   * Optional: how many cursors are pending (material > acked), counted without reading them, for
   * a metrics scrape (`@session-state/prometheus`). The three stores offer it; a caller counts
   * `listCursors()` when a store does not.
   */
  countPendingCursors?(): Promise<number>;

  /**
   * Optional, for the inspector: the store's counts (by the database, over every row) and a
   * bounded part of its heads and cursors, as `overviewOf` states it over full lists. The three
   * stores offer it; a caller uses `overviewOf` over `readHeads()` and `listCursors()` when a store does not.
   */
  readOverview?(limits: OverviewLimits): Promise<StoreOverview>;

  /**
   * Removes every cursor whose watcher is `watcher` (journal: `watch_ended` reset, by
   * `planRemoval`); `now` is the clock time its journal entries record.
   */
  resetWatcher(watcher: SessionKey, now: number): Promise<readonly CursorPair[]>;

  /**
   * Removes the pair's cursor, if it has one (journal: `watch_ended` unwatched, by
   * `planRemoval`), signalling the target like any removal; `removed` says whether it had one.
   */
  unwatch(watcher: SessionKey, target: SessionKey, now: number): Promise<{ readonly removed: boolean }>;

  /**
   * Removes the session's events and every cursor where it is watcher or target (journal:
   * `watch_ended` deleted); keeps its head as a tombstone and raises its prune watermark to the
   * highest sequence deleted. `now` is the clock time its journal entries record.
   */
  deleteSession(sessionKey: SessionKey, now: number): Promise<{ readonly eventsDeleted: number; readonly removedCursors: readonly CursorPair[] }>;

  /**
   * One bounded batch of retention: age, then row cap, then idle cursors (journal: `watch_ended`
   * expired), `material_kept` for the pending cursors the batch's watermarks passed
   * (`planPruneMaterial`), then the journal by `planJournalPrune`; see PruneRequest.
   */
  prune(request: PruneRequest): Promise<PruneBatch>;

  /**
   * Optional, for operators (`session-state prune --dry-run`): what `prune` run to completion
   * with `request` would delete and expire at `request.now`, counted without writing anything
   * (`batchSize` is ignored).
   */
  previewPrune?(request: PruneRequest): Promise<PrunePreview>;

  /**
   * Optional: how many events each prune batch should take, for a store whose calls do not
   * block the event loop (PostgreSQL awaits its server, so a batch's time is mostly round trips
   * and sizing by time would shrink every batch to the floor; a SQLite file prunes the row cap in
   * a worker thread). When absent the facade sizes batches by time, for a store that works
   * synchronously (memory, SQLite's `:memory:`): the first of `PRUNE_BATCH_SIZE` events, then
   * about `PRUNE_BATCH_TARGET_MS` each. A positive integer.
   */
  readonly pruneBatchRows?: number;

  /**
   * Optional, for operators (`session-state prune --vacuum`): gives the space pruned rows left
   * behind back (SQLite: a checkpoint, VACUUM, and the WAL truncated; PostgreSQL: VACUUM of the
   * store's tables), and reports the store's size before and after.
   */
  vacuum?(): Promise<VacuumResult>;

  /**
   * Optional, for stores several processes share: signals each commit made through another
   * handle that made a cursor pending or removed one (see CursorSignalListener). A facade told which
   * watchers it owns listens and re-reads its cursors on the signalled targets (`pendingNotices`).
   */
  listen?: ListenForCursorSignals;

  close(): Promise<void>;
}

/**
 * Every required method of the port but `close` (the optional `readSessionChanges`, `drainThenAppend`, `listen`,
 * `countPendingCursors`, `readOverview`, `previewPrune` and `vacuum` aside, and the `pruneBatchRows` hint): the facade checks a store against them, and test stores that wrap every operation list
 * them from here. It fails to compile when the port gains a required method not listed.
 */
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
export type StoreOperation = Exclude<keyof StateStore, 'close' | 'readSessionChanges' | 'drainThenAppend' | 'listen' | 'countPendingCursors' | 'readOverview' | 'previewPrune' | 'vacuum' | 'pruneBatchRows'>;

const everyOperationListed: [Exclude<StoreOperation, (typeof STORE_OPERATIONS)[number]>] extends [never] ? true : false = true;
void everyOperationListed;
