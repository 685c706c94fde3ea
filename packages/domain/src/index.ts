// The pure core of session-state: codecs, the signal-log head, the watcher cursor state
// machine, the notice text and the ports. No I/O, no clock, no randomness.

export { decodeInput, describeValue, invalidInput, type InvalidInput } from './input/validation.js';
export {
  SessionKey,
  SessionKeyInput,
  SESSION_KEY_EXPECTED,
  SESSION_KEY_MAX_LENGTH,
  isSessionKey,
  isAgentQualified,
  isMainSession,
  isNestedSubagent,
  parseAgentKey,
  type AgentSessionKey,
} from './input/sessionKey.js';
export { Sequence, ChangesSince, PageLimit, MAX_PAGE_LIMIT, ZERO, asSequence, isSequence, maxSequence } from './log/sequence.js';
export { EventKind, EVENT_KINDS, ActorType, RunOutcome, kindClass, type KindClass } from './input/eventKind.js';
export { Summary, normaliseSummary, SUMMARY_MAX_LENGTH, SUMMARY_SCAN_LIMIT } from './input/summary.js';
export { PayloadInput, PAYLOAD_MAX_BYTES, takePayload, type JsonValue, type Payload, type PayloadProblem, type TakenPayload } from './input/payload.js';
export { hasUnpairedSurrogate, toWellFormed } from './input/text.js';
export {
  DedupeKey,
  OccurredAt,
  checkFields,
  decodeRecordInput,
  isDedupeKey,
  type AppendCommand,
  type AppendCommandFields,
  type CommandPayload,
  type RecordFields,
} from './input/recordInput.js';

export { toRecordedEvent, toSessionEvent, type RecordedEvent, type SessionEvent, type StoredEvent } from './log/event.js';
export {
  evolveHead,
  historyGap,
  initialHead,
  isValidNextSequence,
  planHeadWrite,
  type HeadWrite,
  type SignalLogEvent,
  type SignalLogHead,
} from './log/signalLog.js';
export { buildStateChanges, type SessionStatus, type StateChanges } from './log/stateChanges.js';
export { planAppend, toStoredEvent, type AppendPlan, type AppendPlanInput, type CursorRow } from './log/append.js';
export { assertAppendRequest, assertStoreKey } from './ports/storeGuard.js';
export { assertOverviewLimits, isOverviewSource, overviewOf, type OverviewLimits, type OverviewSource, type StoreCounts, type StoreOverview } from './ports/storeOverview.js';

export {
  CURSOR_EVENT_TYPES,
  CursorEvent,
  EndReason,
  WatchVia,
  decide,
  evolve,
  fromWatermarks,
  initialCursor,
  isCursorEvent,
  notifies,
  toWatermarks,
  type Cursor,
  type CursorCommand,
  type CursorDecision,
  type CursorEventType,
  type CursorNotice,
  type CursorState,
  type DecidedEvent,
  type NoticeHeld,
  type TargetEvent,
  type Watermarks,
} from './cursor/cursor.js';

export { journalRecords, type CursorJournalEntry, type CursorJournalRecord } from './cursor/journal.js';
export {
  journalWindowEnd,
  planJournalPrune,
  type JournalPruneInput,
  type JournalRetentionEntry,
  type JournalWindowEnd,
  type JournalWindowFacts,
} from './cursor/journalWindow.js';
export {
  comparePairs,
  pairKey,
  planDrain,
  planPruneMaterial,
  planAcknowledgeRead,
  planRemoval,
  planScan,
  assertScanLimit,
  planWatch,
  type CursorPlan,
  type DrainPlan,
  type DrainPlanInput,
  type PruneMaterialInput,
  type PrunedSession,
  type AcknowledgeReadPlan,
  type AcknowledgeReadPlanInput,
  type RemovalPlan,
  type RemovalPlanInput,
  type ScanPlan,
  type ScanPlanInput,
  type WatchPlan,
  type WatchPlanInput,
} from './cursor/plans.js';
export { replayCursor, type ReplayedTargetEvent } from './cursor/replay.js';
export { describeCursorEvent, explainPair, type ExplainedStep, type PairExplanation } from './cursor/explain.js';
export { noticeText, toNotice, type Notice, type NoticeReason, type NoticeTextOf } from './notice.js';

export type { Clock } from './ports/clock.port.js';
export type { LogFields, Logger } from './ports/logger.port.js';
export type { Wake } from './ports/wake.port.js';
export type { AppendBatchObservation, AwarenessObserver, PruneRunObservation } from './ports/observer.port.js';
export { isCursorSignalSource, type CursorSignalListener, type CursorSignalSource, type CursorSignalSubscription, type ListenForCursorSignals } from './ports/cursorSignals.port.js';
export { isStoreMaintenance, type PrunePreview, type StoreMaintenance, type VacuumResult } from './ports/storeMaintenance.port.js';
export type { CorruptRowInfo, CorruptRowSink } from './ports/corruptRow.port.js';
export {
  failureMessage,
  isStoreError,
  isolatedOutcome,
  splitBatch,
  storeError,
  STORE_OPERATIONS,
  type AppendBatch,
  type AppendOutcome,
  type AppendRequest,
  type ChangesPage,
  type CursorFilter,
  type CursorPair,
  type DrainAck,
  type DrainOutcome,
  type DrainRequest,
  type DrainItem,
  type HeadRow,
  type PruneBatch,
  type PruneRequest,
  type ScanPage,
  type ScanRequest,
  type AcknowledgeReadOutcome,
  type AcknowledgeReadRequest,
  type StateStore,
  type StoreError,
  type StoreOperation,
  type WatchRequest,
} from './ports/stateStore.port.js';
