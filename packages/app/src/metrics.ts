// The facade's counters: plain integers bumped on the paths they count.

/** A snapshot of the counters since the facade was created. */
export interface AwarenessMetrics {
  /** Events written by `record` and `childSpawned` (duplicates and skips excluded). */
  readonly eventsAppended: number;
  /** `record` / `childSpawned` calls that returned `{ ok: false }`. */
  readonly appendFailures: number;
  /** Notices that became a new queue entry. */
  readonly noticesQueued: number;
  /** Notices dropped because the same text was already queued for the pair (re-reads not counted). */
  readonly noticesCoalesced: number;
  /** Notices queued by a drain that found newer changes (reopen). */
  readonly noticesReopened: number;
  /** Notices queued by the restart scan when the facade was created. */
  readonly noticesRecovered: number;
  /** Notices queued by a cross-process re-read (a signal or the resync timer). */
  readonly noticesSignalled: number;
  /** Queued notices withdrawn by such a re-read because another process removed their cursor. */
  readonly noticesWithdrawn: number;
  /** Queued notices withdrawn because their watcher's `status` with `reader` read what they covered. */
  readonly noticesAcknowledgedByRead: number;
  /** Queued notices withdrawn by `unwatch`. */
  readonly noticesUnwatched: number;
  /** Notices handed out by `take`. */
  readonly noticesTaken: number;
  /** Taken notices acknowledged by `confirm`. */
  readonly noticesConfirmed: number;
  /** `status` answers whose `stateChanges.historyGap` was true. */
  readonly gapsServed: number;
  /** Events deleted by pruning. */
  readonly rowsPruned: number;
}

export type MetricName = keyof AwarenessMetrics;

/** Mutable counters; `snapshot()` copies them out. */
export type Counters = ReturnType<typeof createCounters>;

export function createCounters() {
  const values: Record<MetricName, number> = {
    eventsAppended: 0, appendFailures: 0, noticesQueued: 0, noticesCoalesced: 0, noticesReopened: 0, noticesRecovered: 0,
    noticesSignalled: 0, noticesWithdrawn: 0, noticesAcknowledgedByRead: 0, noticesUnwatched: 0, noticesTaken: 0, noticesConfirmed: 0,
    gapsServed: 0, rowsPruned: 0,
  };
  return {
    add: (name: MetricName, by = 1): void => void (values[name] += by),
    snapshot: (): AwarenessMetrics => ({ ...values }),
  };
}
