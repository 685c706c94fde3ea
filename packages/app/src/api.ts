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
  /** Called synchronously when a watcher that is not a nested sub-agent gets a notice that is not taken (a new one, or one whose lease ended). */
  readonly wake?: Wake | undefined;
  /** How long a notice `take` hands out stays taken unless confirmed (ms, default 300,000: five minutes). */
  readonly leaseMs?: number | undefined;
  /**
   * A link to the target for the notice text (a path or URL), rendered as `Open: [session](<link>)` before the
   * reconcile instruction; omitted when it returns nothing. Must be cheap and synchronous.
   *
   * @example noticeLink: (targetKey) => `/chat/${encodeURIComponent(targetKey)}`
   */
  readonly noticeLink?: ((targetKey: string) => string | undefined) | undefined;
  /** Told each append batch's and prune run's duration, synchronously; a throw is logged once and changes nothing. */
  readonly observer?: AwarenessObserver | undefined;
  /** History bounds (default 30 days, 50,000 rows); `cursorMaxAgeMs`, default `maxAgeMs`, expires an idle watch. */
  readonly retention?: { readonly maxAgeMs?: number | undefined; readonly maxRows?: number | undefined; readonly cursorMaxAgeMs?: number | undefined } | undefined;
  /**
   * Whether this process owns the watcher session (queues, wakes and drains its notices), for
   * several gateways on one store; omitted, it owns every watcher. Must be cheap and synchronous.
   *
   * @example ownsSession: (sessionKey) => sessionKey.startsWith('agent:ops:')
   */
  readonly ownsSession?: ((sessionKey: string) => boolean) | undefined;
  /** Period (ms) of the full re-read of owned pending cursors; default 60,000 when the facade listens (contract section 10) or with `ownsSession`, else 0 (off). */
  readonly resyncIntervalMs?: number | undefined;
  /**
   * What creating the facade runs: by default the restart scan, then a first prune in the background.
   *
   * @example startup: { restartScan: false, prune: 'off' } // record one event and exit
   */
  readonly startup?: {
    /** Run the restart scan before resolving. Default true. */
    readonly restartScan?: boolean | undefined;
    /** `'background'` (default): at creation and at most hourly after appends; `'off'`: only `prune()` prunes. */
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
  /** ISO string or epoch ms; informational, returned as ISO; kept within the 24 hours up to the clock's now (a later time is stored as now). */
  readonly occurredAt?: string | number | undefined;
  /** When true and nobody watches the session, nothing is written. */
  readonly onlyIfWatched?: boolean | undefined;
  /** At most 16 watchers this change concerns (e.g. the spawning parent): one it notifies that has no cursor on the session gets one. */
  readonly watchers?: readonly string[] | undefined;
}

/** Why `record` or `childSpawned` wrote nothing, told apart by `name`. */
export type RecordError = InvalidInputError | StoreOperationError | ClockError | ClosedError;

/**
 * The result of `record`, never a rejection: `recorded` (written, or its dedupe key's event),
 * `skipped` (`onlyIfWatched` and unwatched) or `failed`.
 */
export type RecordResult =
  | { readonly ok: true; readonly outcome: 'recorded'; readonly event: RecordedEvent }
  | { readonly ok: true; readonly outcome: 'skipped'; readonly reason: 'unwatched' }
  | { readonly ok: false; readonly outcome: 'failed'; readonly error: RecordError };

/** The result of `childSpawned` for valid input, like `RecordResult`; a spawn edge is never skipped. */
export type ChildSpawnedResult =
  | { readonly ok: true; readonly outcome: 'recorded'; readonly event: RecordedEvent }
  | { readonly ok: false; readonly outcome: 'failed'; readonly error: StoreOperationError | ClockError | ClosedError };

/** One queued notice: who is told, about which target, from which sequence to read. */
export interface Notice {
  readonly watcher: string;
  readonly target: string;
  /** Pass as `changesSince` to status(target): the sequence the watcher last read. */
  readonly changesSince: number;
  /** The notice line the gateway puts in the prompt. */
  readonly text: string;
}

/** A notice `take` handed out: confirm it with `confirm(watcher, taken)` once the model has it in its context. */
export interface TakenNotice extends Notice {
  /** The frozen watermark `confirm` acknowledges (compare-and-swap, as `drain`). */
  readonly notified: number;
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
   * The watcher reconciling: with `changesSince` at or below its cursor's acked, a page that
   * reaches the head acknowledges the cursor and withdraws the notice the read covered.
   */
  readonly reader?: string | undefined;
}

/** One `list` row: `stateVersion` only when the session ever logged an event. */
export interface SessionListRow {
  readonly sessionKey: string;
  readonly stateVersion?: number;
}

/** One `watched` row: a target the watcher holds a cursor on, as `list` gives it, and whether it changed since the watcher last acknowledged it. */
export interface WatchedSession extends SessionListRow {
  /** True while the pair's cursor is pending: changes by another actor the watcher has not acknowledged (its notice is queued, taken or owed). */
  readonly pending: boolean;
}

/** What one `prune()` run removed. */
export type PruneResult = PruneTotals;

/** The in-process API a gateway embeds (docs/contract.md section 8). */
export interface SessionStateAwareness {
  /** Appends one event; never rejects. */
  record(input: RecordInput): Promise<RecordResult>;
  /** Logs `child_spawned` on the child and seeds the parent's cursor on it; only invalid input rejects. */
  childSpawned(input: ChildSpawnedInput): Promise<ChildSpawnedResult>;
  /** After a successful dispatch: with `watch`, the sender watches `deliveredTo` from its current version. */
  sent(input: SentInput): Promise<{ readonly watched: boolean }>;
  /** The watcher watches the target from its current version (as `sent` with `watch`); `ambient`: its notices wake nobody until an explicit watch. */
  watch(watcherKey: string, targetKey: string, options?: { readonly ambient?: boolean | undefined }): Promise<{ readonly watched: boolean }>;
  /** The watcher's queued notices that are not taken, oldest first, without consuming them. */
  pending(watcherKey: string): Notice[];
  /** Consumes the watcher's notices that are not taken (all or nothing): `take` and `confirm` in one call. */
  drain(watcherKey: string): Promise<Notice[]>;
  /** Takes the watcher's notices that are not taken, unacknowledged: handed out again only if unconfirmed when the lease ends or at a restart. */
  take(watcherKey: string): Promise<TakenNotice[]>;
  /** Acknowledges exactly the taken notices (a drain's compare-and-swap) once the model has them; newer changes reopen one notice per target. */
  confirm(watcherKey: string, taken: readonly Pick<TakenNotice, 'target' | 'notified'>[]): Promise<{ readonly confirmed: number }>;
  /** Removes the pair's cursor and withdraws its queued notice; `unwatched` is false when there was none. */
  unwatch(watcherKey: string, targetKey: string): Promise<{ readonly unwatched: boolean }>;
  /** The session's state version and, with `changesSince`, the exact delta (see StatusOptions.reader). */
  status(sessionKey: string, options?: StatusOptions): Promise<SessionStatus>;
  /** One row per key, in the order given. */
  list(sessionKeys: readonly string[]): Promise<SessionListRow[]>;
  /** The sessions the watcher watches, by target key, each with its version and whether it is pending; writes nothing (see renderWatchedSessions). */
  watched(watcherKey: string): Promise<WatchedSession[]>;
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
  /** Stops timers and signals, waits for queued work and any prune, then closes the store. Later calls fail. */
  close(): Promise<void>;
}
