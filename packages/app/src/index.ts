// @session-state/app: the facade a gateway embeds, its error types and options. It depends on the
// domain only: the gateway installs the one store it uses (@session-state/adapters-memory,
// -sqlite or -postgres) and passes it in, so a PostgreSQL gateway never builds better-sqlite3.

// --- the facade ------------------------------------------------------------------------------
export { createSessionStateAwareness } from './awareness.js';
export type {
  ChildSpawnedInput,
  ChildSpawnedResult,
  Notice,
  PruneResult,
  RecordError,
  RecordInput,
  RecordResult,
  SentInput,
  SessionListRow,
  SessionStateAwareness,
  SessionStateAwarenessOptions,
  StatusOptions,
} from './awarenessApi.js';
export { InvalidInputError } from './invalidInputError.js';
export { ClosedError, StoreOperationError } from './storeOperationError.js';
export type { AwarenessMetrics } from './metrics.js';
export { DEFAULT_RETENTION, type PruneTotals, type RetentionPolicy } from './retention.js';
export { APPEND_BATCH_BOUNDS } from './appendBatchBounds.js';
export type { BatchBounds } from './groupCommit.js';
export { ClockError } from './clockReading.js';
export { consoleLogger } from './defaultLogger.js';

// --- the agent's tools -----------------------------------------------------------------------
export { createAgentTools, type AgentTools, type AgentToolsOptions } from './agentTools/createAgentTools.js';
export type {
  AgentTool,
  AgentToolAnswers,
  AgentToolErrorBody,
  AgentToolErrorCode,
  AgentToolName,
  AgentToolResult,
  AgentToolText,
  JsonSchema,
  NamedAgentTool,
  ToolInputSchema,
} from './agentTools/agentTool.js';
export type { AfterSendInput, AfterSendResult, SessionsSendWatch } from './agentTools/sessionsSendWatch.js';

// --- domain types a caller meets -------------------------------------------------------------
export type {
  Clock,
  EventKind,
  ActorType,
  LogFields,
  Logger,
  RecordedEvent,
  SessionEvent,
  SessionStatus,
  StateChanges,
  StateStore,
  Wake,
} from '@session-state/domain';
