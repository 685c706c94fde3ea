// createSessionStateMetrics: session-state's metrics as prom-client metrics in a registry the
// gateway serves or merges into its own /metrics. Counters and gauges are read at scrape time
// (collect); the histograms are fed by the facade's observer port as appends and prunes happen.
import type { SessionStateAwareness } from '@session-state/app';
import type { AwarenessObserver } from '@session-state/domain';
import { Counter, Gauge, Histogram, Registry, type OpenMetricsContentType, type PrometheusContentType } from 'prom-client';

import { COUNTER_NAMES, GAUGE_NAMES, HISTOGRAM_NAMES, type HistogramName } from './metricNames.js';
import { countPendingPairs, type PendingPairsSource } from './pendingPairs.js';

/** A prom-client registry of either exposition format. */
export type AnyRegistry = Registry<PrometheusContentType> | Registry<OpenMetricsContentType>;

/** What the counters and the queue-depth gauge read from the facade. */
export type TrackedAwareness = Pick<SessionStateAwareness, 'metrics' | 'noticeQueueDepth'>;

/** `R`: the registry's type, a Prometheus text registry unless the gateway passes an OpenMetrics one. */
export interface SessionStateMetricsOptions<R extends AnyRegistry = Registry> {
  /** Register into this registry (e.g. the gateway's own); default a new one, returned as `registry`. */
  readonly registry?: R;
  /**
   * The store the facade uses: `session_state_pending_pairs` counts its pending cursors on each
   * scrape. Omitted, that gauge is not registered.
   */
  readonly store?: PendingPairsSource;
  /** Buckets of `session_state_append_batch_duration_seconds`; default HISTOGRAM_NAMES.appendBatch.buckets. */
  readonly appendBatchBuckets?: readonly number[];
  /** Buckets of `session_state_prune_duration_seconds`; default HISTOGRAM_NAMES.pruneRun.buckets. */
  readonly pruneBuckets?: readonly number[];
}

/** The metrics of one facade. */
export interface SessionStateMetrics<R extends AnyRegistry = Registry> {
  /** The registry holding them: the one passed in, or a new one to serve or `Registry.merge`. */
  readonly registry: R;
  /** Pass as the facade's `options.observer`: it feeds the two histograms. */
  readonly observer: AwarenessObserver;
  /**
   * The facade whose counters and notice queue depth each scrape reads (until then they read 0).
   * Calling it again tracks the new facade instead, e.g. after a restart.
   */
  track(awareness: TrackedAwareness): void;
}

/**
 * Registers session-state's metrics (names in docs/metrics.md) and returns the observer the
 * facade takes. One facade per registry: prom-client refuses a second metric of the same name.
 *
 * @example
 * const metrics = createSessionStateMetrics({ store });
 * const awareness = await createSessionStateAwareness({ store, observer: metrics.observer });
 * metrics.track(awareness);
 * const merged = Registry.merge([gatewayRegistry, metrics.registry]); // serve merged.metrics() on /metrics
 */
export function createSessionStateMetrics<R extends AnyRegistry = Registry>(options: SessionStateMetricsOptions<R> = {}): SessionStateMetrics<R> {
  // Without a registry passed in, R is its default, a new Prometheus text registry.
  const registry = options.registry ?? (new Registry() as R);
  const registers: AnyRegistry[] = [registry];
  let tracked: TrackedAwareness | undefined;

  for (const key of Object.keys(COUNTER_NAMES) as (keyof typeof COUNTER_NAMES)[]) {
    new Counter({
      ...COUNTER_NAMES[key],
      registers,
      // The facade keeps the count; the scrape copies it (a counter never goes down while the facade lives).
      collect() {
        if (tracked === undefined) return;
        this.reset();
        this.inc(tracked.metrics()[key]);
      },
    });
  }

  new Gauge({
    ...GAUGE_NAMES.noticeQueueDepth,
    registers,
    collect() {
      this.set(tracked?.noticeQueueDepth() ?? 0);
    },
  });

  const store = options.store;
  if (store !== undefined) {
    new Gauge({
      ...GAUGE_NAMES.pendingPairs,
      registers,
      async collect() {
        try {
          this.set(await countPendingPairs(store));
        } catch {
          // A closed or unreachable store must not fail the whole scrape (the gateway's own metrics
          // are in it too): the gauge says "unknown".
          this.set(Number.NaN);
        }
      },
    });
  }

  const histogram = ({ name, help, buckets }: HistogramName, chosen: readonly number[] | undefined): Histogram => new Histogram({ name, help, buckets: [...(chosen ?? buckets)], registers });
  const appendBatch = histogram(HISTOGRAM_NAMES.appendBatch, options.appendBatchBuckets);
  const pruneRun = histogram(HISTOGRAM_NAMES.pruneRun, options.pruneBuckets);

  return {
    registry,
    observer: {
      appendBatch: ({ durationSeconds }) => appendBatch.observe(durationSeconds),
      pruneRun: ({ durationSeconds }) => pruneRun.observe(durationSeconds),
    },
    track(awareness) {
      tracked = awareness;
    },
  };
}
