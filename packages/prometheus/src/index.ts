// @session-state/prometheus: session-state's metrics in Prometheus text format through prom-client,
// kept out of @session-state/app so a gateway that exports no metrics never installs prom-client.

export { createSessionStateMetrics, type AnyRegistry, type SessionStateMetrics, type SessionStateMetricsOptions, type TrackedAwareness } from './sessionStateMetrics.js';
export { countPendingPairs, type PendingPairsSource } from './pendingPairs.js';
export { COUNTER_NAMES, GAUGE_NAMES, HISTOGRAM_NAMES, type HistogramName, type MetricName } from './metricNames.js';
