// The pure core of session-state: codecs, the signal-log head, the watcher cursor state
// machine, the notice text and the ports. No I/O, no clock, no randomness.

export { decodeInput, describeValue, invalidInput, strictType, type InvalidInput, type StrictFields } from './input/validation.js';
export { type SessionKey, SessionKeyInput, SESSION_KEY_EXPECTED, SESSION_KEY_MAX_LENGTH, isSessionKey, isAgentQualified } from './input/sessionKey.js';
export { isNestedSubagent, parseAgentKey } from './input/sessionKey.js';
export { Sequence, PageLimit, MAX_PAGE_LIMIT, ZERO, asSequence, isSequence } from './log/sequence.js';
export { EventKind, EVENT_KINDS, ActorType, kindClass, type KindClass } from './input/eventKind.js';
export { Summary, normaliseSummary, SUMMARY_MAX_LENGTH, SUMMARY_SCAN_LIMIT } from './input/summary.js';
export { PAYLOAD_MAX_BYTES, type JsonValue, type Payload } from './input/payload.js';
export { clampOccurredAt, DedupeKey, MAX_RECORD_WATCHERS, OccurredAt, OCCURRED_AT_WINDOW_MS, decodeRecordInput } from './input/recordInput.js';
export type { AppendCommand, AppendCommandFields, CommandPayload } from './input/recordInput.js';

export { toRecordedEvent, toSessionEvent, type RecordedEvent, type SessionEvent, type StoredEvent } from './log/event.js';
export { evolveHead, historyGap, initialHead, planHeadWrite, type HeadWrite, type SignalLogEvent, type SignalLogHead } from './log/signalLog.js';
export { buildStateChanges, type SessionStatus, type StateChanges } from './log/stateChanges.js';
export { planAppend, toStoredEvent, type AppendPlan, type AppendPlanInput, type CursorRow } from './log/append.js';
export { assertAppendRequest, assertStoreKey } from './ports/storeGuard.js';
export { assertOverviewLimits, isOverviewSource, overviewOf, type OverviewLimits, type OverviewSource, type StoreCounts, type StoreOverview } from './ports/storeOverview.js';

export { CursorEvent, EndReason, WatchVia, decide, evolve, fromWatermarks, initialCursor, isCursorEvent, lease, notifies, toWatermarks, watchClass } from './cursor/cursor.js';
export type { Cursor, CursorCommand, CursorDecision, CursorNotice, CursorState, DecidedEvent, NoticeHeld, TargetEvent, Watermarks } from './cursor/cursor.js';
export { journalRecords, type CursorJournalEntry, type CursorJournalRecord } from './cursor/journal.js';
export { journalWindowEnd, planJournalPrune, planJournalWindow } from './cursor/journalWindow.js';
export type { JournalPruneInput, JournalRetentionEntry, JournalWindowEnd, JournalWindowEntry, JournalWindowFacts, JournalWindowInput } from './cursor/journalWindow.js';
export { comparePairs, pairKey, planDrain, planPruneMaterial, planAcknowledgeRead, planRemoval, planScan, assertScanLimit, planWatch } from './cursor/plans.js';
export type { CursorPlan, PrunedSession, RemovalPlan, ScanPlanInput, WatchPlanInput } from './cursor/plans.js';
export { replayCursor, type ReplayedTargetEvent } from './cursor/replay.js';
export { explainPair, type ExplainedStep, type PairExplanation } from './cursor/explain.js';
export { noticeText, toNotice, type Notice, type NoticeReason } from './notice.js';

export type { Clock } from './ports/clock.port.js';
export type { LogFields, Logger } from './ports/logger.port.js';
export type { Wake } from './ports/wake.port.js';
export type { AppendBatchObservation, AwarenessObserver, PruneRunObservation } from './ports/observer.port.js';
export { isCursorSignalSource, type CursorSignalListener, type CursorSignalSource, type CursorSignalSubscription, type ListenForCursorSignals } from './ports/cursorSignals.port.js';
export { isStoreMaintenance, type PrunePreview, type StoreMaintenance, type VacuumResult } from './ports/storeMaintenance.port.js';
export type { CorruptRowInfo, CorruptRowSink } from './ports/corruptRow.port.js';
export { failureMessage, isStoreError, isolatedOutcome, splitBatch, storeError, STORE_OPERATIONS } from './ports/stateStore.port.js';
export type { AppendBatch, AppendOutcome, AppendRequest, ChangesPage, CursorFilter, CursorPair, DrainAck, DrainOutcome } from './ports/stateStore.port.js';
export type { DrainRequest, DrainItem, HeadRow, PruneBatch, PruneRequest, ScanPage, ScanRequest, AcknowledgeReadOutcome } from './ports/stateStore.port.js';
export type { AcknowledgeReadRequest, StateStore, StoreError, StoreOperation, WatchRequest } from './ports/stateStore.port.js';
