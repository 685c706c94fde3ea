// @session-state/app: the facade a gateway embeds, its error types and options; the gateway
// passes in the one store it installs.
export { createSessionStateAwareness } from './awareness.js';
export type { ChildSpawnedInput, ChildSpawnedResult, Notice, TakenNotice, PruneResult, RecordError, RecordInput, RecordResult, SentInput } from './api.js';
export type { SessionListRow, SessionStateAwareness, SessionStateAwarenessOptions, StatusOptions, WatchedSession } from './api.js';
export { renderWatchedSessions } from './methods/reads.js';
export { ClockError, ClosedError, InvalidInputError, StoreOperationError } from './errors/errors.js';
export type { AwarenessMetrics } from './metrics.js';
export { DEFAULT_RETENTION, type PruneTotals, type RetentionPolicy } from './retention.js';
export { APPEND_BATCH_BOUNDS } from './pipeline/appendPipeline.js';
export type { BatchBounds } from './pipeline/groupCommit.js';
export { consoleLogger } from './ports.js';

export { createAgentTools, type AgentTools, type AgentToolsOptions } from './agentTools/createAgentTools.js';
export type { AgentTool, AgentToolAnswers, AgentToolErrorBody, AgentToolErrorCode, AgentToolName, AgentToolResult } from './agentTools/agentTool.js';
export type { AgentToolContent, AgentToolContext, AgentToolText, JsonSchema, JsonValue, NamedAgentTool, ToolInputSchema, WithNotices } from './agentTools/agentTool.js';
export type { AfterSendInput, AfterSendResult, SessionsSendWatch } from './agentTools/sessionsSendWatch.js';

export type { Clock, EventKind, ActorType, LogFields, Logger, RecordedEvent } from '@session-state/domain';
export type { SessionEvent, SessionStatus, StateChanges, StateStore, Wake } from '@session-state/domain';
