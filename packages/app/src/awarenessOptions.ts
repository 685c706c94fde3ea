// The facade's options, checked and completed with their defaults: the ports it was given (or
// the system clock and the console logger), the retention policy, cross-process sync, and what
// creating the facade runs.
import type { AwarenessObserver, Clock, Logger, StateStore, Wake } from '@session-state/domain';

import type { SessionStateAwarenessOptions } from './awarenessApi.js';
import { consoleLogger } from './defaultLogger.js';
import {
  decodeResyncInterval,
  decodePruneBatchRows,
  decodeRetention,
  decodeStartup,
  requireFunction,
  requireKnownFields,
  requirePort,
} from './inputs.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from './retention.js';
import { REQUIRED_STORE_METHODS } from './storeMethods.js';

/** What start-up runs, and whether the facade starts prunes by itself (see `options.startup`). */
export interface StartupPlan {
  readonly restartScan: boolean;
  readonly prune: 'background' | 'off';
}

/** Every option, checked, with its default filled in. */
export interface FacadeConfig {
  readonly store: StateStore;
  readonly clock: Clock;
  /** Never throws (see `safeLogger`). */
  readonly logger: Logger;
  readonly wake: Wake | undefined;
  readonly observer: AwarenessObserver | undefined;
  readonly policy: RetentionPolicy;
  /** The store's prune batch size (StateStore.pruneBatchRows), checked; undefined: sized by time. */
  readonly pruneBatchRows: number | undefined;
  /** Undefined: this process owns every watcher. */
  readonly ownsSession: ((sessionKey: string) => boolean) | undefined;
  /** 0: no resync timer. */
  readonly resyncIntervalMs: number;
  readonly startup: StartupPlan;
}

const OPTION_FIELDS = ['store', 'clock', 'logger', 'wake', 'observer', 'retention', 'ownsSession', 'resyncIntervalMs', 'startup'];

const systemClock: Clock = { now: () => Date.now() };

/** The resync timer's period when `ownsSession` is given and `resyncIntervalMs` is not. */
const DEFAULT_RESYNC_INTERVAL_MS = 60_000;

/** A logger port that throws must not break the operation being reported. */
function safeLogger(inner: Logger): Logger {
  return {
    warn(fields, message) {
      try {
        inner.warn(fields, message);
      } catch {
        // Nothing sensible is left to report to.
      }
    },
    error(fields, message) {
      try {
        inner.error(fields, message);
      } catch {
        // Nothing sensible is left to report to.
      }
    },
  };
}

/** `options.observer`: an object whose members, each optional, are functions. */
function requireObserver(observer: unknown): void {
  const fields = requireKnownFields(observer, 'options.observer', ['appendBatch', 'pruneRun']);
  for (const method of ['appendBatch', 'pruneRun']) {
    if (fields[method] !== undefined) requireFunction(fields[method], `options.observer.${method}`, 'a function (observation) => void');
  }
}

/** Checks the options (an InvalidInputError naming the first bad field) and fills in the defaults. */
export function readOptions(options: SessionStateAwarenessOptions): FacadeConfig {
  requireKnownFields(options, 'options', OPTION_FIELDS);
  requirePort(options.store, 'options.store', REQUIRED_STORE_METHODS, 'a StateStore (createMemoryStore(), openSqliteStore({ path }) or await openPostgresStore({ connectionString }))');
  if (options.store.listen !== undefined) requireFunction(options.store.listen, 'options.store.listen', 'a function (listener) => Promise<subscription>');
  if (options.clock !== undefined) requirePort(options.clock, 'options.clock', ['now'], 'a clock { now(): number }');
  if (options.logger !== undefined) requirePort(options.logger, 'options.logger', ['warn', 'error'], 'a logger { warn, error }');
  if (options.wake !== undefined) requireFunction(options.wake, 'options.wake', 'a function (watcherKey) => void');
  if (options.observer !== undefined) requireObserver(options.observer);
  if (options.ownsSession !== undefined) requireFunction(options.ownsSession, 'options.ownsSession', 'a function (sessionKey) => boolean');
  const resyncIntervalMs = decodeResyncInterval(options.resyncIntervalMs) ?? (options.ownsSession !== undefined ? DEFAULT_RESYNC_INTERVAL_MS : 0);
  const retention = decodeRetention(options.retention);
  const pruneBatchRows = decodePruneBatchRows(options.store.pruneBatchRows);
  const startup = decodeStartup(options.startup);
  return {
    store: options.store,
    clock: options.clock ?? systemClock,
    logger: safeLogger(options.logger ?? consoleLogger),
    wake: options.wake,
    observer: options.observer,
    policy: {
      maxAgeMs: retention.maxAgeMs ?? DEFAULT_RETENTION.maxAgeMs,
      maxRows: retention.maxRows ?? DEFAULT_RETENTION.maxRows,
      ...(retention.cursorMaxAgeMs !== undefined ? { cursorMaxAgeMs: retention.cursorMaxAgeMs } : {}),
    },
    pruneBatchRows,
    ownsSession: options.ownsSession,
    resyncIntervalMs,
    startup: { restartScan: startup.restartScan ?? true, prune: startup.prune ?? 'background' },
  };
}
