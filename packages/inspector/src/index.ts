// The live inspector of a session-state store: a read-only local web page of the watch graph,
// each session's timeline, a pair's cursor journal, the pending notices and the metrics, kept
// current by server-sent events. `session-state inspect` runs it; a gateway can start it too.
export { startInspector, DEFAULT_INSPECTOR_HOST, DEFAULT_INSPECTOR_PORT, type InspectorOptions, type RunningInspector } from './startInspector.js';
export { sqliteFileChanges, sqliteFileToken, storeSignalChanges, type ChangeSource, type ChangeSubscription } from './changes.js';
export { watchGraph, agentBoxId, type AgentNode, type SessionNode, type WatchEdge, type WatchGraph } from './graph.js';
export { readOverview, NOTICE_LIMIT, GRAPH_SESSION_LIMIT, GRAPH_EDGE_LIMIT, type Overview, type PendingNotice, type StoreCounts } from './overview.js';
export { readTimeline, TIMELINE_MAX_EVENTS, type Timeline, type TimelineEvent } from './timeline.js';
export type { OverviewUpdate } from './liveOverview.js';
export { isLoopbackHost, allowedHosts } from './hostCheck.js';
