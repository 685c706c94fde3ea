// @session-state/prometheus: session-state's metrics in Prometheus text format through prom-client,
// kept out of @session-state/app so a gateway that exports no metrics never installs prom-client.

export { createSessionStateMetrics, type AnyRegistry, type SessionStateMetrics, type SessionStateMetricsOptions, type TrackedAwareness } from './sessionStateMetrics';
export { countPendingPairs, type PendingPairsSource } from './pendingPairs';
export {
  APPEND_BATCH_BUCKETS,
  APPEND_BATCH_DURATION,
  COUNTER_NAMES,
  PENDING_PAIRS,
  PRUNE_BUCKETS,
  PRUNE_DURATION,
  QUEUE_DEPTH,
  type MetricName,
} from './metricNames';
