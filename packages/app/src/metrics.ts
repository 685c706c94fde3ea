// The facade's counters (SPEC 9): plain integers bumped on the paths they count.

/** A snapshot of the counters since the facade was created. */
export interface AwarenessMetrics {
  /** Events written by `record` and `childSpawned` (duplicates and skips excluded). */
  readonly eventsAppended: number;
  /** `record` / `childSpawned` calls that returned `{ ok: false }` (invalid input or storage). */
  readonly appendFailures: number;
  /** Notices that became a new queue entry (first, reopen, recovered, signalled). */
  readonly noticesQueued: number;
  /**
   * Notices dropped because the same text was already queued for the pair: an append's repeat
   * (a change while the notice is pending), or a stale drain's re-offer. A signal or resync
   * re-read that finds its notice already queued is not counted: it re-offers every pending
   * notice (each resync tick does), which is no new change.
   */
  readonly noticesCoalesced: number;
  /** Notices queued by a drain that found newer changes (reopen). */
  readonly noticesReopened: number;
  /** Notices queued by the restart scan when the facade was created. */
  readonly noticesRecovered: number;
  /**
   * Notices queued by a re-read that a cross-process signal or the resync timer ran (with
   * `ownsSession`): changes recorded by another process for a watcher this one owns. A signalled
   * notice is the one the recording gateway's append froze, so a burst there is one notice here,
   * and the drain reopens once for the rest, exactly as in one process.
   */
  readonly noticesSignalled: number;
  /**
   * Queued notices withdrawn by such a re-read because another process removed their cursor
   * (`sessionReset`, `sessionDeleted` or cursor expiry there), so a drain never hands them over.
   */
  readonly noticesWithdrawn: number;
  /**
   * Queued notices withdrawn because their watcher's own reconcile (`status` with `reader`)
   * already read every change they covered: each is an agent turn saved.
   */
  readonly noticesAcknowledgedByRead: number;
  /** Queued notices withdrawn by `unwatch`. */
  readonly noticesUnwatched: number;
  /** `status` answers whose `stateChanges.historyGap` was true. */
  readonly gapsServed: number;
  /** Events deleted by pruning. */
  readonly rowsPruned: number;
}

export type MetricName = keyof AwarenessMetrics;

/** Mutable counters; `snapshot()` copies them out. */
export interface Counters {
  add(name: MetricName, by?: number): void;
  snapshot(): AwarenessMetrics;
}

export function createCounters(): Counters {
  const values: Record<MetricName, number> = {
    eventsAppended: 0,
    appendFailures: 0,
    noticesQueued: 0,
    noticesCoalesced: 0,
    noticesReopened: 0,
    noticesRecovered: 0,
    noticesSignalled: 0,
    noticesWithdrawn: 0,
    noticesAcknowledgedByRead: 0,
    noticesUnwatched: 0,
    gapsServed: 0,
    rowsPruned: 0,
  };
  return {
    add(name, by = 1) {
      values[name] += by;
    },
    snapshot() {
      return { ...values };
    },
  };
}
