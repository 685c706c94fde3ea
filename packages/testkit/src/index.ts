// The shared test kit: the StateStore contract suite, the one store harness, the one
// fault-injecting store and the one reference model of the notice semantics. Test code only.
export { CORRUPT_CONTENT, STORE_KINDS, corruptReason, memoryKind, nodeSqliteKind, postgresKind, sqliteKind, storeMatrix, tempDbPath, type RowDamage, type StoreHarness, type StoreKind, type TempDb } from './stores.js';
export { dropReleasedSchemas, dropSchema, pgUrl, terminateBackendsAtRandom, uniqueSchema, withClient } from './postgresSchemas.js';
export { describeStateStoreContract } from './contract/stateStore.contract.js';
export { globalTestRunner, heldNotices, restartScanAll, type StateStoreFactory, type TestRunner } from './contract/fixtures.js';
export { INJECTED_FAILURE, faultStore, faultStoreOption, type FaultMode, type FaultStore, type FaultStyle, type SeenCall } from './faultStore.js';
export { NOTICE_RULES, notifiesWatcher, type ModelWatermarks, type RuleNotice, type RuleReason, type RuleStep } from './noticeRules.js';
export { NoticeQueueModel, isAgentKey, noticeTextOf, parseNotice, type OfferOutcome, type QueuedNotice } from './noticeQueue.js';
export { ReferenceModel, type AppendExpectation, type ModelAppend, type ModelCursor, type ModelEvent, type ModelRetention, type ModelSession } from './referenceModel.js';
