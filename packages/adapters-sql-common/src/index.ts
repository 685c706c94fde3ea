// What the SQLite and PostgreSQL stores share, written once: the column lists and the statements
// with the same text in both dialects, named parameters, row decoding and its corrupt-row policy,
// head-row writes by the domain's planHeadWrite, the append's row values, and the port wiring.
// Each adapter keeps only what its database does differently.
export { duplicateOutcome, eventParams, type EventParams } from './appendRow.js';
export { ALL_ROWS, changesPageOfRows, changesPageSkippingCorrupt, EVENT_OFFSET, headOfRow, sessionChangesPageOfRows } from './changesPage.js';
export { wholeMs, withWholeMs } from './clockMs.js';
export { columnsOf, CURSOR_FIELDS, EVENT_FIELDS, HEAD_FIELDS, JOURNAL_FIELDS, PENDING_FIELDS, SESSION_EVENT_FIELDS } from './columns.js';
export { headRowOf, headsInKeyOrder, planHeadWrites, prunedSessions, type HeadChange, type HeadRowWrite } from './heads.js';
export { overviewOfRows } from './overviewRows.js';
export {
  decodeStoredJournalEntries,
  decodeStoredJournalEntry,
  journalParams,
  storedJournalProblem,
  type JournalParams,
  type StoredJournalValues,
} from './journalRow.js';
export { listCursorsQuery, readCursorJournalQuery, removableEntry, sharedStatements, type SharedStatementName, type SharedStatementParams } from './queries.js';
export { failedOutcome, RequestFailed } from './requestFailed.js';
export { batchRoom, journalAfterOf, journalCap, previewOfCounts, pruneCountParams, retentionCutoff, type RetentionCutoff } from './retention.js';
export { bindValues, renderStatement, type Renderable, type RenderedStatement, type SqlDialect } from './statement.js';
export { storePort, type StoreOperations } from './storePort.js';
export { consoleLogger, logCorruptRow, storeLogger, warnCorruptRow, type StoreName } from './storeLogger.js';
export {
  decodePendingRows,
  decodeStoredCursor,
  decodeStoredCursors,
  decodeStoredWatermarks,
  soundRows,
  storedCursorProblem,
  storedEventDecoders,
  storedWatermarksProblem,
  type CursorValues,
  type DecodedEvent,
  type ParseStoredPayload,
  type SessionEventValues,
  type StoredEventDecoder,
  type StoredEventValues,
  type StoredSessionEventDecoder,
} from './storedRow.js';
export type { CursorsTable, EventsTable, HeadsTable, JournalTable, SqlTables } from './tables.js';
