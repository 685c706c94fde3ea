// The cursor journal: appends the entries a plan returns (inside the caller's write
// transaction, beside its cursor rows) and reads them back for `explain` and replay.
import { decodeStoredJournalEntries, journalParams } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorJournalEntry, CursorJournalRecord, CursorRow } from '@session-state/domain';

import { filterStatement, moveCursor } from '../statements.js';
import type { StoreDb } from '../db/storeDb.js';

/** Appends `records` in order (positions follow it); the caller's transaction holds the write lock. */
export function writeJournal(db: StoreDb, records: readonly CursorJournalRecord[]): void {
  for (const record of records) db.statements.insertJournal.run(journalParams(record));
}

/** Writes a plan's moved cursor rows (each one just read under the write lock) and its journal entries. */
export function writeCursorPlan(db: StoreDb, plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] }): void {
  for (const row of plan.cursorWrites) moveCursor(db.statements, row);
  writeJournal(db, plan.journal);
}

/** The entries of the pairs matching `filter` (all when empty), by position; a corrupt row is reported and left out. */
export function readCursorJournal(db: StoreDb, filter: CursorFilter = {}): CursorJournalEntry[] {
  return decodeStoredJournalEntries(db, 'readCursorJournal', db.statements[`journal${filterStatement(filter)}`].all(filter));
}
