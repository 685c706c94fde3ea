// The Prometheus names and HELP texts of session-state's metrics, in one place: the facade's
// counters (`awareness.metrics()`), the two gauges and the two histograms. Prefix `session_state_`,
// counters end in `_total`, durations are in seconds (Prometheus base units).
import type { AwarenessMetrics } from '@session-state/app';

/** A metric's name and HELP text. */
export interface MetricName {
  readonly name: string;
  readonly help: string;
}

/**
 * The Prometheus counter of each facade counter. Keyed by `AwarenessMetrics`, so a counter the
 * facade gains fails to compile here until it is named.
 */
export const COUNTER_NAMES: { readonly [K in keyof AwarenessMetrics]: MetricName } = {
  eventsAppended: { name: 'session_state_events_appended_total', help: 'Events written by record and childSpawned (duplicates and skipped appends excluded).' },
  appendFailures: { name: 'session_state_append_failures_total', help: 'record and childSpawned calls that returned ok: false (invalid input or storage failure).' },
  noticesQueued: { name: 'session_state_notices_queued_total', help: 'Notices that became a new queue entry (first, reopened, recovered or signalled).' },
  noticesCoalesced: { name: 'session_state_notices_coalesced_total', help: 'Notices dropped because the same notice was already queued for the watcher-target pair.' },
  noticesReopened: { name: 'session_state_notices_reopened_total', help: 'Notices queued by a drain that found changes newer than the drained notice.' },
  noticesRecovered: { name: 'session_state_notices_recovered_total', help: 'Notices queued by the restart scan when the facade was created.' },
  noticesSignalled: { name: 'session_state_notices_signalled_total', help: 'Notices queued by a cross-process signal or resync re-read (changes another process recorded).' },
  noticesWithdrawn: { name: 'session_state_notices_withdrawn_total', help: 'Queued notices withdrawn because another process removed or acknowledged their cursor.' },
  noticesAcknowledgedByRead: { name: 'session_state_notices_acknowledged_by_read_total', help: 'Queued notices withdrawn because the watcher reconciled with status({ reader }) and the read covered them (turns saved).' },
  noticesUnwatched: { name: 'session_state_notices_unwatched_total', help: 'Queued notices withdrawn by unwatch.' },
  noticesTaken: { name: 'session_state_notices_taken_total', help: 'Notices handed out by take (leased until confirmed).' },
  noticesConfirmed: { name: 'session_state_notices_confirmed_total', help: 'Taken notices acknowledged by confirm.' },
  gapsServed: { name: 'session_state_history_gaps_served_total', help: 'status answers whose stateChanges.historyGap was true (the reader asked for pruned history).' },
  rowsPruned: { name: 'session_state_events_pruned_total', help: 'Events deleted by retention (prune).' },
};

/** The two gauges, read at scrape time. */
export const GAUGE_NAMES = {
  noticeQueueDepth: {
    name: 'session_state_notice_queue_depth',
    help: 'Notices queued in this process awaiting a drain, over all watchers.',
  },
  pendingPairs: {
    name: 'session_state_pending_pairs',
    help: 'Watcher-target pairs whose cursor holds changes not yet acknowledged, read from the store at scrape time (NaN when the read failed).',
  },
} as const satisfies Record<string, MetricName>;

/** A histogram's name, HELP text and default buckets (seconds). */
export interface HistogramName extends MetricName {
  readonly buckets: readonly number[];
}

/** The two histograms, fed by the facade's observer port. */
export const HISTOGRAM_NAMES = {
  /** Append batches take well under a millisecond in memory and a few on a busy disk or network. */
  appendBatch: {
    name: 'session_state_append_batch_duration_seconds',
    help: 'Time of one append batch store call (a group commit of record/childSpawned appends), in seconds.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  },
  /** A prune run is milliseconds when little is due and tens of seconds for hundreds of thousands of events. */
  pruneRun: {
    name: 'session_state_prune_duration_seconds',
    help: 'Time of one completed prune run, from its first batch to its last, in seconds.',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  },
} as const satisfies Record<string, HistogramName>;
