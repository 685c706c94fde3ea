// The facade `createSessionStateAwareness`: validates input, group-commits appends, keeps the
// notice queue in store order through one operation lane, wakes watchers, reads, and prunes;
// with `ownsSession`, it hears of other processes' appends (signals and a resync timer) by
// re-reading the notices its pending cursors hold, never by rescanning them, and withdraws a
// queued notice whose cursor another process removed.
import {
  decodeRecordInput,
  isAgentQualified,
  isNestedSubagent,
  isSequence,
  isSessionKey,
  normaliseSummary,
  storeError,
  toRecordedEvent,
  toSessionEvent,
  buildStateChanges,
  MAX_PAGE_LIMIT,
  ZERO,
  type AppendCommand,
  type AppendOutcome,
  type AppendRequest,
  type ChangesPage,
  type Clock,
  type CursorPair,
  type CursorSignalListener,
  type CursorSignalSubscription,
  type Logger,
  type Notice,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
  type Summary,
} from '@session-state/domain';

import { APPEND_BATCH_BOUNDS, appendRequestWeight } from './appendBatchBounds';
import type { RecordResult, SessionStateAwareness, SessionStateAwarenessOptions } from './awarenessApi';
import { ClockError, readClock } from './clockReading';
import { consoleLogger } from './defaultLogger';
import { createGroupCommit } from './groupCommit';
import {
  decodeChildSpawned,
  decodeResyncInterval,
  decodeRetention,
  decodeSent,
  decodeSessionKey,
  decodeSessionKeys,
  decodeStatusOptions,
  requireFunction,
  requireKnownFields,
  requirePort,
} from './inputs';
import { InvalidInputError } from './invalidInputError';
import { createCounters } from './metrics';
import { createNoticeQueue, type QueuedPair } from './noticeQueue';
import { createOperationLane } from './operationLane';
import { createRetention, DEFAULT_RETENTION, type RetentionPolicy } from './retention';
import { REQUIRED_STORE_METHODS } from './storeMethods';
import { ClosedError, describeFailure, StoreOperationError } from './storeOperationError';
import { decodeReadable, unreadableInput } from './unreadableInput';

// --- internals -------------------------------------------------------------------------------

/** One request of a group-commit batch and the facade operation it came from. */
interface BatchItem {
  readonly operation: 'record' | 'childSpawned';
  readonly request: AppendRequest;
}

const systemClock: Clock = { now: () => Date.now() };

/** The resync timer's period when `ownsSession` is given and `resyncIntervalMs` is not. */
const DEFAULT_RESYNC_INTERVAL_MS = 60_000;

/**
 * The common valid `status` options (none, or a plain object with a valid `changesSince` and
 * `limit`), checked without io-ts on the polling path; undefined for anything else, which
 * `decodeStatusOptions` then accepts or rejects with its worded error.
 */
function plainStatusOptions(value: unknown): { readonly changesSince?: Sequence; readonly limit?: number } | undefined {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const options = value as { readonly changesSince?: unknown; readonly limit?: unknown };
  for (const field in options) if (field !== 'changesSince' && field !== 'limit') return undefined;
  const { changesSince, limit } = options;
  if (changesSince !== undefined && !isSequence(changesSince)) return undefined;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_PAGE_LIMIT)) return undefined;
  return { changesSince, limit } as { readonly changesSince?: Sequence; readonly limit?: number };
}

/** A `readChanges` page in the shape `readSessionChanges` returns. */
function toSessionChangesPage(page: ChangesPage): SessionChangesPage {
  return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
}

/** A logger port that throws must not break the operation being reported. */
function safeLogger(inner: Logger): Logger {
  return {
    warn(message, fields) {
      try {
        inner.warn(message, fields);
      } catch {
        // Nothing sensible is left to report to.
      }
    },
    error(message, fields) {
      try {
        inner.error(message, fields);
      } catch {
        // Nothing sensible is left to report to.
      }
    },
  };
}

// --- the factory -----------------------------------------------------------------------------

/**
 * Creates the facade over a store and runs the restart scan (re-queuing pending notices) before
 * resolving; a first prune then runs in the background. With `ownsSession` it first subscribes
 * to the store's cursor signals (when it has `listen`) and starts the resync timer after the scan.
 *
 * @example
 * const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: 'state.db' }), wake });
 */
export async function createSessionStateAwareness(options: SessionStateAwarenessOptions): Promise<SessionStateAwareness> {
  // --- options ---
  requireKnownFields(options, 'options', ['store', 'clock', 'logger', 'wake', 'retention', 'ownsSession', 'resyncIntervalMs']);
  requirePort(options.store, 'options.store', REQUIRED_STORE_METHODS, 'a StateStore (createMemoryStore(), openSqliteStore({ path }) or await openPostgresStore({ connectionString }))');
  if (options.store.listen !== undefined) requireFunction(options.store.listen, 'options.store.listen', 'a function (listener) => Promise<subscription>');
  if (options.clock !== undefined) requirePort(options.clock, 'options.clock', ['now'], 'a clock { now(): number }');
  if (options.logger !== undefined) requirePort(options.logger, 'options.logger', ['warn', 'error'], 'a logger { warn, error }');
  if (options.wake !== undefined) requireFunction(options.wake, 'options.wake', 'a function (watcherKey) => void');
  if (options.ownsSession !== undefined) requireFunction(options.ownsSession, 'options.ownsSession', 'a function (sessionKey) => boolean');
  const resyncIntervalMs = decodeResyncInterval(options.resyncIntervalMs) ?? (options.ownsSession !== undefined ? DEFAULT_RESYNC_INTERVAL_MS : 0);
  const retentionOptions = decodeRetention(options.retention);
  const policy: RetentionPolicy = {
    maxAgeMs: retentionOptions.maxAgeMs ?? DEFAULT_RETENTION.maxAgeMs,
    maxRows: retentionOptions.maxRows ?? DEFAULT_RETENTION.maxRows,
  };

  const store = options.store;
  const clock = options.clock ?? systemClock;
  const logger = safeLogger(options.logger ?? consoleLogger);
  const wakePort = options.wake;

  const queue = createNoticeQueue();
  const lane = createOperationLane();
  const counters = createCounters();
  let closing: Promise<void> | undefined;

  // --- notices ---

  const wake = (watcher: string): void => {
    if (wakePort === undefined || isNestedSubagent(watcher)) return;
    try {
      wakePort(watcher);
    } catch (error) {
      logger.warn('wake port threw', { operation: 'wake', watcher, error: describeFailure(error) });
    }
  };

  /**
   * Offers a notice the store asked for; a new entry is counted and wakes its watcher.
   * `signalled`: it came from a re-read run by a cross-process signal or the resync timer. Such
   * a re-read offers every pending notice again (each resync tick does), so finding it already
   * queued is no news and is not counted as coalesced; only a new entry counts.
   */
  const offerNotice = (notice: Notice, signalled = false): void => {
    const offered = queue.offer(notice.watcher, { target: notice.target, text: notice.text, notified: notice.notified });
    if (offered === 'coalesced') {
      if (!signalled) counters.add('noticesCoalesced');
      return;
    }
    counters.add('noticesQueued');
    if (signalled) counters.add('noticesSignalled');
    else if (notice.reason === 'reopen') counters.add('noticesReopened');
    else if (notice.reason === 'recovered') counters.add('noticesRecovered');
    wake(notice.watcher);
  };

  const dropPairs = (pairs: readonly CursorPair[]): void => {
    for (const pair of pairs) queue.remove(pair.watcher, pair.target);
  };

  // --- ownership (several gateway processes on one store) ---

  const ownsPort = options.ownsSession;
  const ownershipSitesLogged = new Set<string>();

  /**
   * The ownership predicate as used at one call site: a port that throws counts as "not owned"
   * (the owner, if any, hears by signal or resync) and is logged once for that site.
   */
  const ownershipAt =
    (site: 'append' | 'scan') =>
    (watcher: string): boolean => {
      try {
        return Boolean((ownsPort as (sessionKey: string) => boolean)(watcher));
      } catch (error) {
        if (!ownershipSitesLogged.has(site)) {
          ownershipSitesLogged.add(site);
          logger.warn('ownsSession threw; the watcher counts as not owned (logged once per call site)', {
            operation: 'ownsSession',
            site,
            watcher,
            error: describeFailure(error),
          });
        }
        return false;
      }
    };
  // Undefined without `ownsSession`: this process owns every watcher, as with one gateway.
  const ownsForAppend = ownsPort === undefined ? undefined : ownershipAt('append');
  const ownsForScan = ownsPort === undefined ? undefined : ownershipAt('scan');

  // --- failures ---

  /** Logs a store failure of a facade operation and returns the error to reject with. */
  const storeFailure = (operation: string, cause: unknown, fields: Record<string, string> = {}): StoreOperationError => {
    logger.error('store operation failed', { operation, ...fields, error: describeFailure(cause) });
    return new StoreOperationError(operation, cause);
  };

  /** Logs a bad clock reading of a facade operation and returns it, to reject or return. */
  const clockFailure = (error: ClockError, fields: Record<string, string> = {}): ClockError => {
    logger.error('clock port failed', { operation: error.operation, ...fields, error: error.message });
    return error;
  };

  /** A clock reading inside an operation: the time, or a logged ClockError thrown. */
  const nowFor = (operation: string, fields: Record<string, string> = {}): number => {
    const now = readClock(clock, operation);
    if (typeof now !== 'number') throw clockFailure(now, fields);
    return now;
  };

  const ensureOpen = (operation: string): void => {
    if (closing !== undefined) throw new ClosedError(operation);
  };

  // Appends submitted earlier in this tick are still in the open group-commit batch: hand it to
  // the lane first, so every operation runs in call order (a record fired before a delete, a
  // reset or a watch is applied before it). Assigned once the group commit exists.
  let flushAppends: () => void = () => undefined;

  /** Enters the lane behind every operation called before this one, appends included. */
  const enterLane = <T>(operation: () => Promise<T>): Promise<T> => {
    flushAppends();
    return lane.run(operation);
  };

  /** Runs a mutating store call and its queue update in the lane; failures become StoreOperationErrors. */
  const inLane = <T>(operation: string, fields: Record<string, string>, call: () => Promise<T>, apply: (result: T) => void): Promise<T> =>
    enterLane(async () => {
      let result: T;
      try {
        result = await call();
      } catch (error) {
        throw storeFailure(operation, error, fields);
      }
      apply(result);
      return result;
    });

  // --- retention ---

  const retention = createRetention({
    policy,
    now: () => readClock(clock, 'prune'),
    pruneBatch: (request) =>
      enterLane(async () => {
        const started = performance.now();
        const batch = await store.prune(request);
        const elapsedMs = performance.now() - started;
        dropPairs(batch.expiredCursors);
        return { batch, elapsedMs };
      }),
    onBatch: (eventsDeleted) => counters.add('rowsPruned', eventsDeleted),
    onBackgroundError: (error) => {
      // A bad clock reading included: logged, and the schedule tries again after the next append.
      logger.error('background prune failed', { operation: 'prune', error: describeFailure(error) });
    },
  });

  // --- group commit of appends ---

  const toResult = (item: BatchItem, outcome: AppendOutcome | undefined): RecordResult => {
    switch (outcome?.type) {
      case 'appended':
      case 'duplicate':
        return { ok: true, event: toRecordedEvent(outcome.event) };
      case 'skipped':
        return { ok: true, skipped: 'unwatched' };
      case 'failed':
      case undefined: {
        const cause = outcome?.error ?? storeError('append', 'the store returned no outcome for this request');
        counters.add('appendFailures');
        const { command } = item.request;
        return { ok: false, error: storeFailure(item.operation, cause, { sessionKey: command.sessionKey, kind: command.kind }) };
      }
      default: {
        const unreachable: never = outcome;
        return unreachable;
      }
    }
  };

  /**
   * What follows a committed append here (counters, the spawn edge's queue entry, its notices and
   * wakes): a failure in it is logged and never turns the append's result into a failure, since
   * the event is written and a caller retrying it would write it twice.
   */
  const afterCommitted = (item: BatchItem, outcome: AppendOutcome & { readonly type: 'appended' }): void => {
    try {
      counters.add('eventsAppended');
      // A spawn edge overwrote the pair's cursor, so a notice queued for the old one goes.
      const seedWatcher = item.request.seedWatcher;
      if (seedWatcher !== undefined) queue.remove(seedWatcher, item.request.command.sessionKey);
      // Another process's watcher hears of it there, by signal or resync, never here.
      for (const notice of outcome.notices) if (ownsForAppend === undefined || ownsForAppend(notice.watcher)) offerNotice(notice);
    } catch (error) {
      logger.error('queuing the notices of a committed append failed; the append stands', {
        operation: item.operation,
        sessionKey: item.request.command.sessionKey,
        kind: item.request.command.kind,
        error: describeFailure(error),
      });
    }
  };

  const flushBatch = async (items: readonly BatchItem[]): Promise<readonly RecordResult[]> => {
    let outcomes: readonly AppendOutcome[];
    try {
      outcomes = await store.append(items.map((item) => item.request));
    } catch (error) {
      const failed: AppendOutcome = { type: 'failed', error: storeError('append', error) };
      outcomes = items.map(() => failed);
    }
    let appended = false;
    const results: RecordResult[] = [];
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as BatchItem;
      const outcome = Array.isArray(outcomes) ? outcomes[i] : undefined;
      if (outcome?.type === 'appended') {
        appended = true;
        afterCommitted(item, outcome);
      }
      results.push(toResult(item, outcome));
    }
    if (appended) {
      // The retention schedule never changes the result of appends that committed.
      try {
        retention.afterAppend();
      } catch (error) {
        logger.error('the prune schedule check failed; skipped until the next append', { operation: 'prune', error: describeFailure(error) });
      }
    }
    return results;
  };

  const commit = createGroupCommit<BatchItem, RecordResult>(
    (run) => {
      void lane.run(run);
    },
    flushBatch,
    (items, error) => items.map((item) => toResult(item, { type: 'failed', error: storeError('append', error) })),
    { bounds: APPEND_BATCH_BOUNDS, weigh: (item) => appendRequestWeight(item.request) },
  );
  flushAppends = () => commit.flushNow();

  // --- re-reads of owned cursors after signals and on the resync timer ---

  // Why never `restartScan` here: the restart scan raises a pending cursor's notified to material.
  // On a live queue that lets a drain acknowledge changes the watcher never read (it read
  // status before they were recorded); the held notice keeps the frozen watermark, so the
  // drain reopens for them, exactly as in one process.

  // Targets signalled since the last scan, and whether a full scan of owned cursors is due.
  const signalledTargets = new Set<SessionKey>();
  let fullScanDue = false;
  let scanScheduled: NodeJS.Immediate | undefined;
  let resyncTimer: NodeJS.Timeout | undefined;
  let subscription: CursorSignalSubscription | undefined;

  /**
   * One re-read through the lane (so it is ordered with drains and appends): the notices the
   * owned pending cursors hold (`store.pendingNotices`) on the signalled targets, or on all of
   * them when a full scan is due; read-only, so it moves no watermark. A failed scan keeps what
   * it was asked for, for the next signal or resync tick (never a retry loop).
   */
  const scanSignalled = (): Promise<void> =>
    enterLane(async () => {
      const full = fullScanDue;
      const targets = full ? [] : [...signalledTargets];
      fullScanDue = false;
      signalledTargets.clear();
      if (!full && targets.length === 0) return;
      // Taken before the read: an entry queued after it is never judged by it.
      const queued = full ? queue.allEntries() : targets.flatMap((target) => queue.entriesOn(target));
      let notices: readonly Notice[];
      try {
        notices = await store.pendingNotices(ownsForScan, full ? undefined : targets);
      } catch (error) {
        if (full) fullScanDue = true;
        else for (const target of targets) signalledTargets.add(target);
        logger.error('cursor scan failed; retried on the next signal or resync', {
          operation: 'pendingNotices',
          scan: full ? 'full' : 'targets',
          targets: targets.length,
          error: describeFailure(error),
        });
        return;
      }
      for (const notice of notices) offerNotice(notice, true);
      await withdrawRemoved(queued, notices);
    });

  /** One string per (watcher, target): session keys never hold whitespace, so a space separates. */
  const pairKey = (watcher: string, target: string): string => `${watcher} ${target}`;

  /**
   * Withdraws queued notices whose cursor another process removed (a reset, a session delete or
   * cursor expiry there; in this process those drop the entry themselves). A scanned entry the
   * re-read found no pending cursor for is a suspect; it goes only if its cursor is gone. One
   * whose cursor is still there stays: e.g. a drain that committed but reported a failure left
   * it, and the next drain must still hand its text over. Nothing is read when every entry is
   * pending (the usual case); a failed read keeps the entries for the next signal or resync.
   */
  const withdrawRemoved = async (queued: readonly QueuedPair[], pending: readonly Notice[]): Promise<void> => {
    const pendingPairs = new Set(pending.map((notice) => pairKey(notice.watcher, notice.target)));
    const suspectsByTarget = new Map<string, QueuedPair[]>();
    for (const pair of queued) {
      if (pendingPairs.has(pairKey(pair.watcher, pair.entry.target))) continue;
      const suspects = suspectsByTarget.get(pair.entry.target);
      if (suspects === undefined) suspectsByTarget.set(pair.entry.target, [pair]);
      else suspects.push(pair);
    }
    for (const [target, suspects] of suspectsByTarget) {
      let watchers: ReadonlySet<string>;
      try {
        watchers = new Set((await store.listCursors({ target: target as SessionKey })).map((row) => row.watcher));
      } catch (error) {
        logger.error('cursor read failed; queued notices are checked again on the next signal or resync', {
          operation: 'listCursors',
          error: describeFailure(error),
        });
        return;
      }
      for (const { watcher, entry } of suspects) {
        if (watchers.has(watcher)) continue;
        queue.removeIfSame(watcher, entry);
        counters.add('noticesWithdrawn');
      }
    }
  };

  /** At most one scan per turn of the event loop, however many signals arrive in it. */
  const scheduleScan = (): void => {
    if (closing !== undefined || scanScheduled !== undefined) return;
    scanScheduled = setImmediate(() => {
      scanScheduled = undefined;
      if (closing !== undefined) return;
      scanSignalled().catch((error: unknown) => {
        logger.error('cursor scan failed', { operation: 'pendingNotices', error: describeFailure(error) });
      });
    });
  };

  const listener: CursorSignalListener = {
    targetsChanged(targets) {
      if (closing !== undefined) return;
      try {
        for (const target of targets) signalledTargets.add(target);
      } catch (error) {
        // A malformed signal: scan everything rather than miss a target.
        fullScanDue = true;
        logger.warn('cursor signal was malformed; scanning every owned cursor', { operation: 'listen', error: describeFailure(error) });
      }
      scheduleScan();
    },
    resync() {
      if (closing !== undefined) return;
      fullScanDue = true;
      scheduleScan();
    },
    failed(error) {
      logger.warn('cursor signal listener failed; the store retries it', { operation: 'listen', error: describeFailure(error) });
    },
  };

  const closeSubscription = async (): Promise<void> => {
    const current = subscription;
    subscription = undefined;
    if (current === undefined) return;
    try {
      await current.close();
    } catch (error) {
      logger.warn('closing the cursor signal subscription failed', { operation: 'close', error: describeFailure(error) });
    }
  };

  // --- the restart scan (the only place `restartScan` runs: nothing is queued yet) ---

  // Listening starts BEFORE the scan, so an append another process commits in between is signalled.
  if (ownsPort !== undefined && store.listen !== undefined) {
    try {
      subscription = await store.listen(listener);
    } catch (error) {
      throw storeFailure('listen', error);
    }
  }

  let recovered: readonly Notice[];
  try {
    recovered = await lane.run(() => {
      // A full scan of owned cursors: it covers every signal received before it.
      signalledTargets.clear();
      fullScanDue = false;
      const now = nowFor('restartScan');
      return ownsForScan === undefined ? store.restartScan(now) : store.restartScan(now, ownsForScan);
    });
  } catch (error) {
    await closeSubscription();
    throw error instanceof ClockError ? error : storeFailure('restartScan', error);
  }
  for (const notice of recovered) offerNotice(notice);
  retention.startInBackground();

  if (resyncIntervalMs > 0) {
    resyncTimer = setInterval(() => {
      fullScanDue = true;
      scheduleScan();
    }, resyncIntervalMs);
    // A safety net, never a reason to keep the process alive.
    resyncTimer.unref();
  }

  // --- the facade ----------------------------------------------------------------------------

  /**
   * The synchronous part of `record`: validate, read the clock, join the open batch. Hostile
   * input may still make it throw (a getter the decoder reads); `record` guards it.
   */
  const recordNow = (input: unknown): Promise<RecordResult> => {
    if (closing !== undefined) return Promise.resolve({ ok: false, error: new ClosedError('record') });
    const decoded = decodeRecordInput(input);
    if (decoded._tag === 'Left') {
      counters.add('appendFailures');
      logger.warn('record rejected invalid input', { operation: 'record', field: decoded.left.field, expected: decoded.left.expected });
      return Promise.resolve({ ok: false, error: new InvalidInputError(decoded.left) });
    }
    const appendedAt = readClock(clock, 'record');
    if (typeof appendedAt !== 'number') {
      counters.add('appendFailures');
      return Promise.resolve({ ok: false, error: clockFailure(appendedAt, { sessionKey: decoded.right.sessionKey }) });
    }
    return commit.submit({ operation: 'record', request: { command: decoded.right, appendedAt } });
  };

  return {
    record(input) {
      // record never throws and never rejects: anything thrown while reading the input (a getter,
      // a revoked Proxy, a payload's toJSON) is a failed result like any other bad input.
      try {
        return recordNow(input);
      } catch (error) {
        const invalid = unreadableInput('record', input, error);
        counters.add('appendFailures');
        logger.warn('record rejected invalid input', { operation: 'record', field: invalid.field, expected: invalid.expected });
        return Promise.resolve({ ok: false, error: invalid });
      }
    },

    async childSpawned(input) {
      ensureOpen('childSpawned');
      const { parentKey, childKey, summary, dedupeKey } = decodeReadable('childSpawned', input, () => decodeChildSpawned(input));
      const command: AppendCommand = {
        sessionKey: childKey,
        kind: 'child_spawned',
        actorType: 'agent',
        actorSessionKey: parentKey,
        summary: summary ?? (normaliseSummary(`spawned by ${parentKey}`) as Summary),
        onlyIfWatched: false,
        ...(dedupeKey !== undefined ? { dedupeKey } : {}),
      };
      // A failing clock is no fault of the input: a failed result, as for a storage failure.
      const appendedAt = readClock(clock, 'childSpawned');
      if (typeof appendedAt !== 'number') {
        counters.add('appendFailures');
        return { ok: false, error: clockFailure(appendedAt, { sessionKey: childKey }) };
      }
      const seeds = isAgentQualified(parentKey) && isAgentQualified(childKey) && parentKey !== childKey;
      const request: AppendRequest = { command, appendedAt, ...(seeds ? { seedWatcher: parentKey } : {}) };
      const result = await commit.submit({ operation: 'childSpawned', request });
      // childSpawned never sets onlyIfWatched, so the store cannot skip it.
      if (result.ok && !('event' in result)) return { ok: false, error: new StoreOperationError('childSpawned', 'the store skipped a spawn edge') };
      return result;
    },

    async sent(input) {
      ensureOpen('sent');
      const { senderKey, deliveredTo, watch, delivered } = decodeReadable('sent', input, () => decodeSent(input));
      if (!watch || delivered === false || senderKey === deliveredTo) return { watched: false };
      if (!isAgentQualified(senderKey) || !isAgentQualified(deliveredTo)) return { watched: false };
      const fields = { watcher: senderKey, target: deliveredTo };
      await enterLane(async () => {
        // Read in the lane: the new cursor's touch time is when the watch runs.
        const now = nowFor('sent', fields);
        try {
          await store.watch({ watcher: senderKey, target: deliveredTo, now });
        } catch (error) {
          throw storeFailure('sent', error, fields);
        }
      });
      return { watched: true };
    },

    pending(watcherKey) {
      ensureOpen('pending');
      return queue.texts(decodeReadable('pending.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'pending.watcherKey')));
    },

    async drain(watcherKey) {
      ensureOpen('drain');
      const watcher = decodeReadable('drain.watcherKey', watcherKey, () => decodeSessionKey(watcherKey, 'drain.watcherKey'));
      // Always through the lane (an idle lane runs it at once): a notice from an append called
      // earlier in this tick is queued before the snapshot below.
      return enterLane(async () => {
        // Taken inside the lane, so every earlier append is already in the queue.
        const drained = queue.entries(watcher);
        if (drained.length === 0) return [];
        const acks = drained.map((entry) => ({ target: entry.target as SessionKey, notified: entry.notified }));
        // A bad clock reading consumes nothing: the notices stay queued for the next drain.
        const now = nowFor('drain', { watcher });
        let outcomes;
        try {
          outcomes = await store.drain(watcher, acks, now);
        } catch (error) {
          throw storeFailure('drain', error, { watcher });
        }
        for (const entry of drained) queue.removeIfSame(watcher, entry);
        for (const outcome of outcomes) {
          const next = outcome.result === 'acked' ? outcome.reopened : outcome.pending;
          if (next !== undefined) offerNotice(next);
        }
        return drained.map((entry) => entry.text);
      });
    },

    async status(sessionKey, statusOptions) {
      ensureOpen('status');
      // A valid key is checked without io-ts on the polling path; anything else gets the worded error.
      const key =
        typeof sessionKey === 'string' && isSessionKey(sessionKey)
          ? sessionKey
          : decodeReadable('status.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'status.sessionKey'));
      const { changesSince, limit } = decodeReadable('status', statusOptions, () => plainStatusOptions(statusOptions) ?? decodeStatusOptions(statusOptions));
      // In the lane (at once when it is idle): the read sees every operation called before it.
      return enterLane(async () => {
        try {
          if (changesSince === undefined) {
            const [row] = await store.readHeads([key]);
            return { sessionKey: key, stateVersion: row?.head ?? ZERO };
          }
          // The store's lean read when it has one (no second mapping of every event), else readChanges.
          const page =
            store.readSessionChanges !== undefined
              ? await store.readSessionChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT)
              : toSessionChangesPage(await store.readChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT));
          const stateChanges = buildStateChanges(page.head, changesSince, page.events, page.hasMore);
          if (stateChanges.historyGap) counters.add('gapsServed');
          return { sessionKey: key, stateVersion: page.head.head, stateChanges };
        } catch (error) {
          throw storeFailure('status', error, { sessionKey: key });
        }
      });
    },

    async list(sessionKeys) {
      ensureOpen('list');
      const keys = decodeReadable('list.sessionKeys', sessionKeys, () => decodeSessionKeys(sessionKeys));
      // In the lane (at once when it is idle), like status: it sees every write called before it.
      const rows = await enterLane(async () => {
        try {
          return await store.readHeads(keys);
        } catch (error) {
          throw storeFailure('list', error);
        }
      });
      const versions = new Map<string, number>();
      for (const row of rows) versions.set(row.sessionKey, row.head);
      return keys.map((key) => {
        const version = versions.get(key) ?? 0;
        return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
      });
    },

    async sessionReset(sessionKey) {
      ensureOpen('sessionReset');
      const key = decodeReadable('sessionReset.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionReset.sessionKey'));
      // The journal entries of the removed cursors record this time.
      const now = nowFor('sessionReset', { sessionKey: key });
      await inLane('sessionReset', { sessionKey: key }, () => store.resetWatcher(key, now), (pairs) => {
        dropPairs(pairs);
        queue.removeWatcher(key);
      });
    },

    async sessionDeleted(sessionKey) {
      ensureOpen('sessionDeleted');
      const key = decodeReadable('sessionDeleted.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'sessionDeleted.sessionKey'));
      // The journal entries of the removed cursors record this time.
      const now = nowFor('sessionDeleted', { sessionKey: key });
      await inLane('sessionDeleted', { sessionKey: key }, () => store.deleteSession(key, now), (result) => {
        dropPairs(result.removedCursors);
        queue.removeWatcher(key);
        queue.removeTarget(key);
      });
    },

    async prune() {
      ensureOpen('prune');
      try {
        return await retention.runNow();
      } catch (error) {
        // A bad clock reading prunes nothing and is reported as what it is.
        throw error instanceof ClockError ? clockFailure(error) : storeFailure('prune', error);
      }
    },

    metrics() {
      return counters.snapshot();
    },

    close() {
      if (closing !== undefined) return closing;
      closing = (async () => {
        commit.flushNow();
        if (resyncTimer !== undefined) clearInterval(resyncTimer);
        if (scanScheduled !== undefined) clearImmediate(scanScheduled);
        scanScheduled = undefined;
        await closeSubscription();
        await retention.stop();
        await lane.idle();
        try {
          await store.close();
        } catch (error) {
          throw storeFailure('close', error);
        }
      })();
      return closing;
    },
  };
}
