// The facade's options, checked (an InvalidInputError naming the first bad field) and completed with their defaults.
import { STORE_OPERATIONS, type Clock, type CursorSignalSource } from '@session-state/domain';

import type { SessionStateAwarenessOptions } from '../api.js';
import { consoleLogger, safeLogger } from '../ports.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../retention.js';
import { decodeOptional, LeaseMs, requireFunction, requireKnownFields, requirePort, ResyncInterval, RetentionOptions, StartupOptions } from './codecs.js';

/** What start-up runs, and whether the facade starts prunes by itself. */
export type StartupPlan = ReturnType<typeof readOptions>['startup'];

const OPTION_FIELDS = ['store', 'clock', 'logger', 'wake', 'leaseMs', 'noticeLink', 'observer', 'retention', 'ownsSession', 'resyncIntervalMs', 'startup'];
const REQUIRED_STORE_METHODS = [...STORE_OPERATIONS, 'close'];
const OBSERVER_METHODS = ['appendBatch', 'pruneRun'];
const DEFAULT_RESYNC_INTERVAL_MS = 60_000;
/** Long enough for a slow model call to reach the point of confirming; short enough that a lost turn's notices come back soon. */
const DEFAULT_LEASE_MS = 300_000;
const systemClock: Clock = { now: () => Date.now() };

/** Every option, checked, with its default filled in. */
export function readOptions(options: SessionStateAwarenessOptions) {
  requireKnownFields(options, 'options', OPTION_FIELDS);
  requirePort(options.store, 'options.store', REQUIRED_STORE_METHODS, 'a StateStore (createMemoryStore(), openSqliteStore({ path }) or await openPostgresStore({ connectionString }))');
  const { listen } = options.store as Partial<CursorSignalSource>;
  if (listen !== undefined) requireFunction(listen, 'options.store.listen', 'a function (listener) => Promise<subscription>');
  if (options.clock !== undefined) requirePort(options.clock, 'options.clock', ['now'], 'a clock { now(): number }');
  if (options.logger !== undefined) requirePort(options.logger, 'options.logger', ['warn', 'error'], 'a logger { warn, error }');
  if (options.wake !== undefined) requireFunction(options.wake, 'options.wake', 'a function (watcherKey) => void');
  if (options.noticeLink !== undefined) requireFunction(options.noticeLink, 'options.noticeLink', 'a function (targetKey) => string | undefined');
  if (options.observer !== undefined) {
    const fields = requireKnownFields(options.observer, 'options.observer', OBSERVER_METHODS);
    for (const method of OBSERVER_METHODS) if (fields[method] !== undefined) requireFunction(fields[method], `options.observer.${method}`, 'a function (observation) => void');
  }
  if (options.ownsSession !== undefined) requireFunction(options.ownsSession, 'options.ownsSession', 'a function (sessionKey) => boolean');
  // A decoded option object holds only the fields given, so each default stays unless overridden.
  const startup = { restartScan: true, prune: 'background' as const, ...decodeOptional(StartupOptions, options.startup, 'options.startup') };
  // A gateway (it runs the restart scan) or an owner of some watchers hears of other processes' commits; a one-shot does not.
  const listens = listen !== undefined && (startup.restartScan || options.ownsSession !== undefined);
  const resyncByDefault = listens || options.ownsSession !== undefined;
  const resyncIntervalMs = decodeOptional(ResyncInterval, options.resyncIntervalMs, 'options.resyncIntervalMs') ?? (resyncByDefault ? DEFAULT_RESYNC_INTERVAL_MS : 0);
  const policy: RetentionPolicy = { ...DEFAULT_RETENTION, ...decodeOptional(RetentionOptions, options.retention, 'options.retention') };
  return {
    store: options.store,
    clock: options.clock ?? systemClock,
    /** Never throws. */
    logger: safeLogger(options.logger ?? consoleLogger),
    wake: options.wake,
    leaseMs: decodeOptional(LeaseMs, options.leaseMs, 'options.leaseMs') ?? DEFAULT_LEASE_MS,
    noticeLink: options.noticeLink,
    observer: options.observer,
    policy,
    ownsSession: options.ownsSession,
    listens,
    resyncIntervalMs,
    startup,
  };
}
