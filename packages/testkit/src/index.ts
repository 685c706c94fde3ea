// The shared test kit: the StateStore contract suite, the one store harness, the one
// fault-injecting store and the one reference model of the notice semantics. Test code only.

// --- stores under test ---------------------------------------------------------------------
export { CORRUPT_CONTENT, STORE_KINDS, corruptReason, memoryKind, nodeSqliteKind, postgresKind, sqliteKind, storeMatrix, tempDbPath, type RowDamage, type StoreHarness, type StoreKind, type TempDb } from './stores.js';
export { dropReleasedSchemas, dropSchema, pgUrl, terminateBackendsAtRandom, uniqueSchema, withClient } from './postgresSchemas.js';

// --- the StateStore contract ---------------------------------------------------------------
export { describeStateStoreContract, type StateStoreFactory } from './contract/stateStore.contract.js';
export { globalTestRunner, heldNotices, restartScanAll, scanAll, type TestRunner } from './contract/fixtures.js';

// --- fault injection -----------------------------------------------------------------------
export {
  INJECTED_FAILURE,
  STORE_METHODS,
  faultStore,
  faultStoreOption,
  type FaultMode,
  type FaultStore,
  type FaultStyle,
  type SeenCall,
  type StoreMethod,
} from './faultStore.js';

// --- the reference model of the notice semantics -------------------------------------------
export { NOTICE_RULES, NOTIFYING_KINDS, notifiesWatcher, type ModelWatermarks, type RuleNotice, type RuleReason, type RuleStep } from './noticeRules.js';
export { NoticeQueueModel, isAgentKey, isNestedKey, noticeTextOf, parseNotice, type OfferOutcome, type QueuedNotice } from './noticeQueue.js';
export {
  MODEL_PRUNE_INTERVAL_MS,
  ReferenceModel,
  type AppendExpectation,
  type ModelAppend,
  type ModelCursor,
  type ModelEvent,
  type ModelRetention,
  type ModelSession,
} from './referenceModel.js';
