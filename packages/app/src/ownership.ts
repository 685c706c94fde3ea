// Ownership of watchers when several gateway processes share one store (`ownsSession`): the
// predicate as each call site uses it, so a port that throws never breaks an append or a scan.
import type { Logger } from '@session-state/domain';

import { describeFailure } from './storeOperationError.js';

/** Whether this process owns (queues and delivers the notices of) `watcher`. */
export type OwnsWatcher = (watcher: string) => boolean;

/** The predicate at each call site; undefined when this process owns every watcher. */
export interface Ownership {
  /** Which of an append's notices this process queues (the owner elsewhere hears by signal or resync). */
  readonly forAppend: OwnsWatcher;
  /** Which cursors the restart scan and the cross-process re-reads look at. */
  readonly forScan: OwnsWatcher;
}

/**
 * Without `ownsSession` this process owns every watcher, as with one gateway: undefined. With it,
 * a call that throws counts as "not owned" (the owner, if any, hears by signal or resync) and is
 * logged once per call site.
 */
export function createOwnership(ownsSession: ((sessionKey: string) => boolean) | undefined, logger: Logger): Ownership | undefined {
  if (ownsSession === undefined) return undefined;
  const sitesLogged = new Set<string>();
  const at =
    (site: 'append' | 'scan'): OwnsWatcher =>
    (watcher) => {
      try {
        return Boolean(ownsSession(watcher));
      } catch (error) {
        if (!sitesLogged.has(site)) {
          sitesLogged.add(site);
          logger.warn({
            operation: 'ownsSession',
            site,
            watcher,
            error: describeFailure(error),
          }, 'ownsSession threw; the watcher counts as not owned (logged once per call site)');
        }
        return false;
      }
    };
  return { forAppend: at('append'), forScan: at('scan') };
}
