// `ownsSession` at each call site, for several gateways on one store: a call that throws counts
// as not owned (the owner hears by signal or resync) and is logged once per call site.
import type { Logger } from '@session-state/domain';

import { describeFailure } from '../errors/errors.js';

/** Whether this process owns (queues and delivers the notices of) `watcher`. */
export type OwnsWatcher = (watcher: string) => boolean;

export interface Ownership {
  /** Which notices of this process's own operations are queued here. */
  readonly forAppend: OwnsWatcher;
  /** Which cursors the restart scan and the cross-process re-reads look at. */
  readonly forScan: OwnsWatcher;
}

/** Undefined without `ownsSession`: this process owns every watcher. */
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
          logger.warn({ operation: 'ownsSession', site, watcher, error: describeFailure(error) }, 'ownsSession threw; the watcher counts as not owned (logged once per call site)');
        }
        return false;
      }
    };
  return { forAppend: at('append'), forScan: at('scan') };
}
