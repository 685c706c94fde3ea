// The cursor journal: a plan's cursor rows and journal entries written as arrays for one `unnest`
// statement (inside the caller's transaction, after its locking read), and the journal read back.
import { decodeStoredJournalEntries, journalParams, readCursorJournalQuery, type JournalParams } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorJournalEntry, CursorJournalRecord, CursorRow } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { readAlone, run } from '../connection/transaction.js';
import type { CursorArrays, JournalArrays } from '../statements.js';
import type { StoreDb } from '../storeDb.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };

/** One array per JournalParams field, in record order; built in one pass into one fixed shape (this runs on every append). */
function journalArrays(records: readonly CursorJournalRecord[]): JournalArrays {
  const arrays: Mutable<JournalArrays> = { jWatchers: [], jTargets: [], jTypes: [], jReasons: [], jVias: [], jAcked: [], jNotified: [], jMaterial: [], jRecordedAt: [] };
  for (const record of records) {
    const row: JournalParams = journalParams(record);
    arrays.jWatchers.push(row.watcher);
    arrays.jTargets.push(row.target);
    arrays.jTypes.push(row.type);
    arrays.jReasons.push(row.reason);
    arrays.jVias.push(row.via);
    arrays.jAcked.push(row.acked);
    arrays.jNotified.push(row.notified);
    arrays.jMaterial.push(row.material);
    arrays.jRecordedAt.push(row.recordedAt);
  }
  return arrays;
}

/** A plan write's values: one array per CursorRow field and per JournalParams field. */
function planArrays(rows: readonly CursorRow[], records: readonly CursorJournalRecord[]): CursorArrays & JournalArrays {
  const c: Mutable<CursorArrays> = { watchers: [], targets: [], acked: [], notified: [], material: [], touchedAt: [] };
  for (const row of rows) {
    c.watchers.push(row.watcher);
    c.targets.push(row.target);
    c.acked.push(row.acked);
    c.notified.push(row.notified);
    c.material.push(row.material);
    c.touchedAt.push(row.touchedAt);
  }
  return { ...c, ...journalArrays(records) };
}

/** Writes a plan's cursor rows and journal entries in one statement (nothing when both are empty). */
export async function writeCursorPlan(db: StoreDb, client: PoolClient, plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] }): Promise<void> {
  if (plan.cursorWrites.length === 0 && plan.journal.length === 0) return;
  await run(client, db.statements.writeCursorPlan, planArrays(plan.cursorWrites, plan.journal));
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
