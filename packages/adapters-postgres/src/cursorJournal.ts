// The cursor journal: writes a plan's cursor rows and journal entries (inside the caller's
// transaction, after its locking read) and reads the journal back for `explain` and replay.
import { and, asc, eq, type SQL } from 'drizzle-orm';
import {
  cursorJournalValues,
  decodeStoredJournalEntries,
  type CursorFilter,
  type CursorJournalEntry,
  type CursorJournalRecord,
  type CursorRow,
} from '@session-state/domain';
import type { PoolClient } from 'pg';

import { journalColumnsOf } from './statements';
import type { StoreDb } from './storeDb';
import { run, runAlone } from './transaction';

/** The journal placeholders' values: one array per CursorJournalValues column. */
function journalArrays(records: readonly CursorJournalRecord[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], [], [], [], [], []];
  for (const record of records) {
    const values = cursorJournalValues(record);
    for (let i = 0; i < values.length; i += 1) (columns[i] as unknown[]).push(values[i]);
  }
  return columns;
}

/** Writes a plan's cursor rows and journal entries in one statement (nothing when both are empty). */
export async function writeCursorPlan(
  db: StoreDb,
  client: PoolClient,
  plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] },
): Promise<void> {
  const rows = plan.cursorWrites;
  if (rows.length === 0 && plan.journal.length === 0) return;
  await run(client, db.statements.writeCursorPlan, [
    rows.map((row) => row.watcher),
    rows.map((row) => row.target),
    rows.map((row) => row.acked),
    rows.map((row) => row.notified),
    rows.map((row) => row.material),
    rows.map((row) => row.touchedAt),
    ...journalArrays(plan.journal),
  ]);
}

/** Appends `records` in order, in one statement (nothing when empty). */
export async function writeJournal(db: StoreDb, client: PoolClient, records: readonly CursorJournalRecord[]): Promise<void> {
  if (records.length === 0) return;
  await run(client, db.statements.insertJournal, journalArrays(records));
}

/**
 * The entries of the pairs matching `filter` (all when empty), by position; one statement. A
 * corrupt row is reported to `db.onCorruptRow` and left out, as the cursor readers do.
 */
export async function readCursorJournal(db: StoreDb, filter: CursorFilter = {}): Promise<CursorJournalEntry[]> {
  const { cursorJournal } = db.tables;
  const conditions: SQL[] = [];
  if (filter.watcher !== undefined) conditions.push(eq(cursorJournal.watcher, filter.watcher));
  if (filter.target !== undefined) conditions.push(eq(cursorJournal.target, filter.target));
  const query = db.orm
    .select(journalColumnsOf(db.tables))
    .from(cursorJournal)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(cursorJournal.position))
    .toSQL();
  const rows = await runAlone(db, { text: query.sql }, query.params);
  return decodeStoredJournalEntries(db, 'readCursorJournal', rows);
}
