// The cursor journal: appends the entries a plan returns (inside the caller's write
// transaction, beside its cursor rows) and reads them back for `explain` and replay.
import { and, asc, eq, type SQL } from 'drizzle-orm';
import {
  cursorJournalValues,
  decodeStoredJournalEntries,
  type CursorFilter,
  type CursorJournalEntry,
  type CursorJournalRecord,
} from '@session-state/domain';

import { cursorJournal } from './schema';
import { journalColumns } from './statements';
import type { StoreDb } from './storeDb';

/** Appends `records` in order (positions follow it); the caller's transaction holds the write lock. */
export function writeJournal(db: StoreDb, records: readonly CursorJournalRecord[]): void {
  for (const record of records) db.statements.insertJournal.run(...cursorJournalValues(record));
}

/**
 * The entries of the pairs matching `filter` (all when empty), by position. A corrupt row is
 * reported to `db.onCorruptRow` and left out, as the cursor readers do.
 */
export function readCursorJournal(db: StoreDb, filter: CursorFilter = {}): CursorJournalEntry[] {
  const conditions: SQL[] = [];
  if (filter.watcher !== undefined) conditions.push(eq(cursorJournal.watcher, filter.watcher));
  if (filter.target !== undefined) conditions.push(eq(cursorJournal.target, filter.target));
  const rows = db.orm
    .select(journalColumns)
    .from(cursorJournal)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(cursorJournal.position))
    .values();
  return decodeStoredJournalEntries(db, 'readCursorJournal', rows);
}
