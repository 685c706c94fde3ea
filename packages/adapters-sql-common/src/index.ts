// What the SQLite and PostgreSQL stores share: tables and statements (sql/), row codecs (rows/), retention arithmetic, port wiring (port/).
export { duplicateOutcome, eventParams, failedOutcome, RequestFailed, type EventParams } from './rows/append.js';
export { ALL_ROWS, changesPageOfRows, headOfRow } from './rows/changesPage.js';
export { headRowOf, headsInKeyOrder, overviewOfRows, planHeadWrites, planPrunedHeads, type HeadChange, type HeadRowWrite } from './rows/heads.js';
export { decodeStoredJournalEntries, journalParams, type JournalParams } from './rows/journalRow.js';
export { decodePendingRows, decodeStoredCursor, decodeStoredCursors, storedEventDecoders, type CursorValues, type StoredEventDecoder } from './rows/storedRow.js';
export { journalWindowParams, planJournalRows, previewOfCounts, pruneCountParams, retentionCutoff } from './retention.js';
export { listCursorsQuery, readCursorJournalQuery, sharedStatements, type SharedStatementName, type SharedStatementParams } from './sql/queries.js';
export { bindValues, p, q, renderStatement, type Query, type Renderable } from './sql/statement.js';
export { columnsOf, CURSOR_FIELDS, PENDING_FIELDS, type SqlTables } from './sql/tables.js';
export { logCorruptRow, storeLogger, warnCorruptRow } from './port/storeLogger.js';
export { storePort, type StoreOperations } from './port/storePort.js';
