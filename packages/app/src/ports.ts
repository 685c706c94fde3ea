// The ports the embedder passes, as the facade calls them: the logger (console by default, a throw swallowed), the
// observer (a missing method does nothing) and `ownsSession` (a throw counts as not owned: the owner hears by signal or
// resync). A throwing observer or ownsSession is logged once per method or call site; neither changes a result.
import type { AppendBatchObservation, AwarenessObserver, LogFields, Logger, PruneRunObservation } from '@session-state/domain';

import { describeFailure } from './errors/errors.js';

/** Writes to `console.warn` / `console.error` with a `session-state:` prefix and the fields. */
export const consoleLogger: Logger = {
  warn: (fields, message) => console.warn(`session-state: ${message}`, fields),
  error: (fields, message) => console.error(`session-state: ${message}`, fields),
};

/** The logger with every throw swallowed: nothing sensible is left to report to. */
export function safeLogger(inner: Logger): Logger {
  const guarded = (level: 'warn' | 'error') => (fields: LogFields, message: string): void => {
    try {
      inner[level](fields, message);
    } catch {
      // ignored
    }
  };
  return { warn: guarded('warn'), error: guarded('error') };
}

/** A warning logged only the first time for each key. */
function warnOnce(logger: Logger): (key: string, fields: LogFields, message: string) => void {
  const warned = new Set<string>();
  return (key, fields, message) => {
    if (warned.has(key)) return;
    warned.add(key);
    logger.warn(fields, message);
  };
}

export type Observe = ReturnType<typeof createObserve>;

export function createObserve(observer: AwarenessObserver | undefined, logger: Logger) {
  const warn = warnOnce(logger);
  const call = <T>(method: keyof AwarenessObserver, observation: T): void => {
    const handler = observer?.[method] as ((observation: T) => void) | undefined;
    try {
      handler?.call(observer, observation);
    } catch (error) {
      warn(method, { operation: `observer.${method}`, error: describeFailure(error) }, 'observer threw; later throws of this method are not logged');
    }
  };
  return {
    /** Absent when the observer has no appendBatch: then no batch is timed. */
    appendBatch: observer?.appendBatch === undefined ? undefined : (observation: AppendBatchObservation): void => call('appendBatch', observation),
    pruneRun: (observation: PruneRunObservation): void => call('pruneRun', observation),
  };
}

/** Whether this process owns (queues and delivers the notices of) `watcher`. */
export type OwnsWatcher = (watcher: string) => boolean;

/**
 * Undefined without `ownsSession`: this process owns every watcher. `forAppend`: which notices of this process's own
 * operations are queued here; `forScan`: which cursors the restart scan and the cross-process re-reads look at.
 */
export function createOwnership(ownsSession: ((sessionKey: string) => boolean) | undefined, logger: Logger): { forAppend: OwnsWatcher; forScan: OwnsWatcher } | undefined {
  if (ownsSession === undefined) return undefined;
  const warn = warnOnce(logger);
  const at = (site: 'append' | 'scan'): OwnsWatcher => (watcher) => {
    try {
      return Boolean(ownsSession(watcher));
    } catch (error) {
      warn(site, { operation: 'ownsSession', site, watcher, error: describeFailure(error) }, 'ownsSession threw; the watcher counts as not owned (logged once per call site)');
      return false;
    }
  };
  return { forAppend: at('append'), forScan: at('scan') };
}
