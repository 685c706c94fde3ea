// @session-state/app: the facade a gateway embeds, its error types and options, and the store
// adapters re-exported for convenience.

// --- the facade ------------------------------------------------------------------------------
export { createSessionStateAwareness } from './awareness';
export type {
  ChildSpawnedInput,
  ChildSpawnedResult,
  PruneResult,
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

// --- the store adapters, for convenience -----------------------------------------------------
export { createManualClock, createMemoryStore, type ManualClock, type MemoryStore } from '@session-state/adapters-memory';
export { openSqliteStore, type SqliteStoreOptions } from '@session-state/adapters-sqlite';

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
