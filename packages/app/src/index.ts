// @session-state/app: the facade a gateway embeds, its error types and options. It depends on the
// domain only: the gateway installs the one store it uses (@session-state/adapters-memory,
// -sqlite or -postgres) and passes it in, so a PostgreSQL gateway never builds better-sqlite3.

// --- the facade ------------------------------------------------------------------------------
export { createSessionStateAwareness } from './awareness';
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
} from './awarenessApi';
export { InvalidInputError } from './invalidInputError';
export { ClosedError, StoreOperationError } from './storeOperationError';
export type { AwarenessMetrics } from './metrics';
export { DEFAULT_RETENTION, type PruneTotals, type RetentionPolicy } from './retention';
export { APPEND_BATCH_BOUNDS } from './appendBatchBounds';
export type { BatchBounds } from './groupCommit';
export { ClockError } from './clockReading';
export { consoleLogger } from './defaultLogger';

// --- the agent's tools -----------------------------------------------------------------------
export { createAgentTools, type AgentTools, type AgentToolsOptions } from './agentTools/createAgentTools';
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
} from './agentTools/agentTool';
export type { AfterSendInput, AfterSendResult, SessionsSendWatch } from './agentTools/sessionsSendWatch';

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
