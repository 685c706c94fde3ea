// The cursor journal: a plan's rows and entries written as unnest arrays in the caller's transaction, and the journal read back.
import { decodeStoredJournalEntries, journalParams, readCursorJournalQuery } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorJournalEntry, CursorJournalRecord, CursorRow } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { readAlone, run } from '../connection/transaction.js';
import { CURSOR_COLUMNS, JOURNAL_COLUMNS, type Arrays, type CursorWrite, type JournalArrays } from '../statements.js';
import type { StoreDb } from '../storeDb.js';

/** One array per placeholder of `columns`, each of its field of `rows`, in row order. */
function arraysOf<Row, Columns extends Record<string, keyof Row>>(rows: readonly Row[], columns: Columns): Arrays<Row, Columns> {
  const arrays = Object.entries(columns).map(([placeholder, field]) => [placeholder, rows.map((row) => row[field as keyof Row])]);
  return Object.fromEntries(arrays) as Arrays<Row, Columns>;
}

const journalArrays = (records: readonly CursorJournalRecord[]): JournalArrays => arraysOf(records.map(journalParams), JOURNAL_COLUMNS);

/** Writes a plan's cursor rows and journal entries in one statement (nothing when both are empty). */
export async function writeCursorPlan(db: StoreDb, client: PoolClient, plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] }): Promise<void> {
  if (plan.cursorWrites.length === 0 && plan.journal.length === 0) return;
  const rows = plan.cursorWrites.map((row): CursorWrite => ({ ...row, ambient: row.ambient === true ? 1 : 0 }));
  await run(client, db.statements.writeCursorPlan, { ...arraysOf(rows, CURSOR_COLUMNS), ...journalArrays(plan.journal) });
}

/** Appends `records` in order, in one statement (nothing when empty). */
export async function writeJournal(db: StoreDb, client: PoolClient, records: readonly CursorJournalRecord[]): Promise<void> {
  if (records.length === 0) return;
  await run(client, db.statements.insertJournal, journalArrays(records));
}

/** The entries of the pairs matching `filter` (all when empty), by position; a corrupt row is reported and left out. */
export async function readCursorJournal(db: StoreDb, filter: CursorFilter = {}): Promise<CursorJournalEntry[]> {
  return decodeStoredJournalEntries(db, 'readCursorJournal', await readAlone(db, readCursorJournalQuery(db.tables, filter)));
}
