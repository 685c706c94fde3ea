// What the SQLite and PostgreSQL stores share, written once: tables and shared statements (sql/),
// row codecs and the corrupt-row policy (rows/), retention arithmetic, and the port wiring (port/).
export { duplicateOutcome, eventParams, failedOutcome, RequestFailed, type EventParams } from './rows/append.js';
export { ALL_ROWS, changesPageOfRows, changesPageSkippingCorrupt, EVENT_OFFSET, headOfRow } from './rows/changesPage.js';
export { headRowOf, headsInKeyOrder, overviewOfRows, planHeadWrites, prunedSessions, type HeadChange, type HeadRowWrite } from './rows/heads.js';
export { decodeStoredJournalEntries, decodeStoredJournalEntry, journalParams, storedJournalProblem, type JournalParams, type StoredJournalValues } from './rows/journalRow.js';
export { decodePendingRows, decodeStoredCursor, decodeStoredCursors, decodeStoredWatermarks, soundRows, storedCursorProblem, storedEventDecoders, storedWatermarksProblem, type CursorValues, type DecodedEvent, type ParseStoredPayload, type StoredEventDecoder, type StoredEventValues } from './rows/storedRow.js';
export { batchRoom, journalAfterOf, journalCap, previewOfCounts, pruneCountParams, retentionCutoff, type RetentionCutoff } from './retention.js';
export { listCursorsQuery, readCursorJournalQuery, removableEntry, sharedStatements, type SharedStatementName, type SharedStatementParams } from './sql/queries.js';
export { bindValues, renderStatement, type Renderable, type RenderedStatement, type SqlDialect } from './sql/statement.js';
export { columnsOf, CURSOR_FIELDS, EVENT_FIELDS, HEAD_FIELDS, JOURNAL_FIELDS, PENDING_FIELDS, type CursorsTable, type EventsTable, type HeadsTable, type JournalTable, type SqlTables } from './sql/tables.js';
export { consoleLogger, logCorruptRow, storeLogger, warnCorruptRow, type StoreName } from './port/storeLogger.js';
export { storePort, wholeMs, withWholeMs, type SqlStore, type StoreOperations } from './port/storePort.js';
