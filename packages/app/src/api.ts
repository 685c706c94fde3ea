// The public API types of the facade: its options, method inputs and results, and the interface.
import type { ActorType, AwarenessObserver, Clock, EventKind, Logger, RecordedEvent, SessionStatus, StateStore, Wake } from '@session-state/domain';

import type { ClockError, ClosedError, InvalidInputError, StoreOperationError } from './errors/errors.js';
import type { AwarenessMetrics } from './metrics.js';
import type { PruneTotals } from './retention.js';

/** What `createSessionStateAwareness` needs: a store, and optionally the other ports. */
export interface SessionStateAwarenessOptions {
  /** A StateStore from `openSqliteStore({ path })` or `createMemoryStore()`; closed by `close()`. */
  readonly store: StateStore;
  /** The source of "now" (epoch ms) for append times and retention; default the system clock. */
  readonly clock?: Clock | undefined;
  /** Receives operational warnings and errors (identifiers only, never content); default console. */
  readonly logger?: Logger | undefined;
  /** Called synchronously when a notice is newly queued for a watcher that is not a nested sub-agent. */
  readonly wake?: Wake | undefined;
  /**
   * Receives timings for metrics: each append batch's store call and each completed prune run,
   * in seconds (counts and durations only, never content). Called synchronously, so it must be
   * cheap; a throw is logged once per method and changes nothing. `@session-state/prometheus`
   * provides one.
   *
   * @example observer: sessionStateMetrics.observer
   */
  readonly observer?: AwarenessObserver | undefined;
  /**
   * History bounds; default 30 days and 50,000 rows. `cursorMaxAgeMs` is how long a watch may
   * sit untouched before it expires, `maxAgeMs` when absent (see RetentionPolicy).
   */
  readonly retention?: { readonly maxAgeMs?: number | undefined; readonly maxRows?: number | undefined; readonly cursorMaxAgeMs?: number | undefined } | undefined;
  /**
   * For several gateway processes on one shared store: whether this process owns the watcher
   * session `sessionKey` (delivers its notices and drains it). Omitted, this process owns every
   * watcher, exactly as with one gateway.
   *
   * With it, notices are queued (and woken) here only for owned watchers; the restart scan
   * reads only owned cursors; a store that offers `listen` (PostgreSQL) signals appends made
   * in any process, and this facade re-reads the notices its owned cursors on the signalled
   * targets hold (`store.pendingNotices`); a resync timer (`resyncIntervalMs`) re-reads all of
   * them as a safety net, which alone gives a store without `listen` (a shared SQLite file)
   * notices across processes within one interval. A signalled notice is the one the recording
   * gateway's append froze, so a burst there is one notice here, and the drain reopens once for
   * the rest, exactly as in one process (a re-read never moves a watermark, so a drain never
   * acknowledges a change recorded after the watcher last read). A re-read also withdraws a
   * queued notice whose cursor another process removed (`sessionReset`, `sessionDeleted` or
   * cursor expiry there; such removals signal their targets too), counted in `noticesWithdrawn`.
   * Each watcher should be owned by exactly one process at a time (two owners would both
   * deliver its notice). The drain path is unchanged: a gateway drains only the watchers it
   * owns, and a process that does not own a watcher has nothing queued for it, so `pending` is
   * empty and `drain` returns `[]` there. Must be cheap and synchronous; a call that throws
   * counts as not owned and is logged (once per call site: appends, scans).
   *
   * @example ownsSession: (sessionKey) => sessionKey.startsWith('agent:ops:')
   */
  readonly ownsSession?: ((sessionKey: string) => boolean) | undefined;
  /**
   * How often (ms) a full re-read of the notices the owned pending cursors hold runs, so a lost
   * signal or a store without `listen` still yields the notice within this delay. Default 60,000 when
   * `ownsSession` is given, otherwise 0; 0 turns the timer off. The timer never keeps the
   * process alive.
   */
  readonly resyncIntervalMs?: number | undefined;
  /**
   * What creating the facade runs, for callers that are not a long-running gateway. By default
   * it runs the restart scan before resolving (it re-queues the notice of every pending cursor,
   * raising a frozen notice to the newest change, which is a write) and starts a first prune in
   * the background. `ownsSession` adds listening and the resync timer; `resyncIntervalMs: 0`
   * turns the timer off.
   *
   * @example startup: { restartScan: false, prune: 'off' } // record one event and exit: nothing else is read or written
   */
  readonly startup?: {
    /** Run the restart scan before resolving. Default true. */
    readonly restartScan?: boolean | undefined;
    /**
     * `'background'` (default): a prune starts at creation and again at most hourly after
     * appends. `'off'`: the facade never starts a prune by itself; only `prune()` prunes.
     */
    readonly prune?: 'background' | 'off' | undefined;
  } | undefined;
}

/** The `record` input (docs/contract.md section 8); checked at runtime, so plain JavaScript callers get clear errors. */
export interface RecordInput {
  readonly sessionKey: string;
  readonly kind: EventKind;
  readonly actorType: ActorType;
  readonly actorSessionKey?: string | undefined;
  /** One line of metadata, never message content; normalised and capped at 200 characters. */
  readonly summary: string;
  /** A small plain JSON object (at most 4 KiB); `run_failed` needs `outcome`. */
  readonly payload?: Readonly<Record<string, unknown>> | undefined;
  readonly dedupeKey?: string | undefined;
  /** ISO string or epoch ms; informational, returned as ISO. */
  readonly occurredAt?: string | number | undefined;
  /** When true and nobody watches the session, nothing is written. */
  readonly onlyIfWatched?: boolean | undefined;
}

/**
 * Why `record` or `childSpawned` wrote nothing, told apart by `name`: `InvalidInputError` (the
 * input; `record` only, with `field` and `expected`), `StoreOperationError`, `ClockError`,
 * `ClosedError` (each with `operation`). Every one has a `message`.
 *
 * @example if (!result.ok && result.error.name === 'InvalidInputError') log.warn({ field: result.error.field }, 'bad record');
 */
export type RecordError = InvalidInputError | StoreOperationError | ClockError | ClosedError;

/**
 * The result of `record`, never a rejection, tagged by `outcome` (`ok` stays for a quick check):
 * `recorded` (written, or the existing event of its dedupe key), `skipped` (`onlyIfWatched` and
 * nobody watches the session: nothing written), or `failed` (invalid input, storage, clock, closed).
 *
 * @example
 * const result = await awareness.record(input);
 * switch (result.outcome) { case 'recorded': use(result.event); break; case 'skipped': break; case 'failed': log(result.error); }
 */
export type RecordResult =
  | { readonly ok: true; readonly outcome: 'recorded'; readonly event: RecordedEvent }
  | { readonly ok: true; readonly outcome: 'skipped'; readonly reason: 'unwatched' }
  | { readonly ok: false; readonly outcome: 'failed'; readonly error: RecordError };

/**
 * The result of `childSpawned` when its input was valid (invalid input rejects), tagged like
 * `RecordResult`: a spawn edge is never skipped.
 */
export type ChildSpawnedResult =
  | { readonly ok: true; readonly outcome: 'recorded'; readonly event: RecordedEvent }
  | { readonly ok: false; readonly outcome: 'failed'; readonly error: StoreOperationError | ClockError | ClosedError };

/** One queued notice: who is told, about which target, from which sequence to read. */
export interface Notice {
  readonly watcher: string;
  readonly target: string;
  /** Pass as `changesSince` to status(target): the sequence the watcher last read. */
  readonly changesSince: number;
  /** The notice line, byte-identical to the 0.1 string notices (the gateway puts it in the prompt). */
  readonly text: string;
}

export interface ChildSpawnedInput {
  readonly parentKey: string;
  readonly childKey: string;
  /** Default `spawned by <parentKey>`. */
  readonly summary?: string | undefined;
  /** e.g. `child-spawned:<runId>`: a retry returns the first event and touches no cursor. */
  readonly dedupeKey?: string | undefined;
}

export interface SentInput {
  readonly senderKey: string;
  /** The session that actually received the message, after routing. */
  readonly deliveredTo: string;
  readonly watch: boolean;
  /** False when the dispatch failed; default true. */
  readonly delivered?: boolean | undefined;
}

export interface StatusOptions {
  /** Return the events after this sequence (and `historyGap`) as `stateChanges`. */
  readonly changesSince?: number | undefined;
  /** At most this many events (1-200, default 200). */
  readonly limit?: number | undefined;
  /**
   * The watcher reconciling (opt-in acknowledge, issue 15). With `changesSince`, when the page
   * reaches the head (`hasMore` false) and `changesSince` is at or below what the reader's
   * cursor on this session has acknowledged, the cursor is acknowledged up to the page's
   * `stateVersion` and a queued notice the read covered is withdrawn; changes recorded after
   * the read reopen one notice. Without it (or without `changesSince`), status is read-only.
   */
  readonly reader?: string | undefined;
}

/** One `list` row: `stateVersion` only when the session ever logged an event. */
export interface SessionListRow {
  readonly sessionKey: string;
  readonly stateVersion?: number;
}

/** What one `prune()` run removed. */
export type PruneResult = PruneTotals;

/** The in-process API a gateway embeds (docs/contract.md section 8). */
export interface SessionStateAwareness {
  /** Appends one event; never rejects. */
  record(input: RecordInput): Promise<RecordResult>;
  /**
   * Logs `child_spawned` on the child and seeds the parent's cursor on it. A write that did not
   * happen (store, clock, closed) is `{ ok: false, error }`; only invalid input rejects.
   */
  childSpawned(input: ChildSpawnedInput): Promise<ChildSpawnedResult>;
  /** After a successful dispatch: with `watch`, the sender watches `deliveredTo` from its current version. */
  sent(input: SentInput): Promise<{ readonly watched: boolean }>;
  /** The watcher's queued notices, oldest first, without consuming them. */
  pending(watcherKey: string): Notice[];
  /** Consumes the watcher's notices (all or nothing); newer changes reopen one notice per target. */
  drain(watcherKey: string): Promise<Notice[]>;
  /**
   * Stops the watcher watching the target: removes the pair's cursor (journal: `watch_ended`
   * unwatched) and withdraws its queued notice. `unwatched` is false when the pair had no cursor.
   * A spawn edge can be unwatched; a later `sent` with `watch: true` starts a new watch at the
   * target's head then.
   */
  unwatch(watcherKey: string, targetKey: string): Promise<{ readonly unwatched: boolean }>;
  /**
   * The session's state version and, with `changesSince`, the exact delta; with `reader` too,
   * a page that reaches the head acknowledges the reader's cursor (see StatusOptions.reader).
   */
  status(sessionKey: string, options?: StatusOptions): Promise<SessionStatus>;
  /** One row per key, in the order given. */
  list(sessionKeys: readonly string[]): Promise<SessionListRow[]>;
  /** The watcher session was reset: its cursors and queued notices go. */
  sessionReset(sessionKey: string): Promise<void>;
  /** The session was deleted: its events, its cursors either way and their notices go; its head stays. */
  sessionDeleted(sessionKey: string): Promise<void>;
  /** Applies retention now. */
  prune(): Promise<PruneResult>;
  /** Counters since creation (docs/contract.md section 8, `metrics()`). */
  metrics(): AwarenessMetrics;
  /** How many notices are queued in this process now, over all watchers (a gauge; no store read). */
  noticeQueueDepth(): number;
  /**
   * Stops the resync timer and the cursor-signal subscription, waits for queued work and any
   * running prune, then closes the store. Later calls fail.
   */
  close(): Promise<void>;
}
