// The cursor journal: writes a plan's cursor rows and journal entries (inside the caller's
// transaction, after its locking read) as arrays for one `unnest` statement, and reads the
// journal back for `explain` and replay.
import { decodeStoredJournalEntries, journalParams, readCursorJournalQuery, type JournalParams } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorJournalEntry, CursorJournalRecord, CursorRow } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { CursorArrays, JournalArrays } from './statements.js';
import type { StoreDb } from './storeDb.js';
import { readAlone, run } from './transaction.js';

// --- the placeholders' arrays ----------------------------------------------------------------
// Built in one pass per list into objects of one fixed shape: this runs twice per recorded event
// (the drain's plan and the append's), where a generic field map (Object.entries and a map per
// field, then a spread of the two results) was among the store's top self times in a gateway's
// CPU profile (bench pg8).

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };

/** The journal placeholders' values: one array per JournalParams field, in record order. */
function journalArrays(records: readonly CursorJournalRecord[]): JournalArrays {
  const arrays: Mutable<JournalArrays> = { jWatchers: [], jTargets: [], jTypes: [], jReasons: [], jVias: [], jAcked: [], jNotified: [], jMaterial: [], jRecordedAt: [] };
  for (const record of records) {
    // journalParams stays the one mapping of an entry to its columns (shared with SQLite).
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

/** A plan write's placeholders' values: one array per CursorRow field and per JournalParams field. */
function planArrays(rows: readonly CursorRow[], records: readonly CursorJournalRecord[]): CursorArrays & JournalArrays {
  const watchers: string[] = [];
  const targets: string[] = [];
  const acked: number[] = [];
  const notified: number[] = [];
  const material: number[] = [];
  const touchedAt: number[] = [];
  for (const row of rows) {
    watchers.push(row.watcher);
    targets.push(row.target);
    acked.push(row.acked);
    notified.push(row.notified);
    material.push(row.material);
    touchedAt.push(row.touchedAt);
  }
  const j = journalArrays(records);
  return {
    watchers,
    targets,
    acked,
    notified,
    material,
    touchedAt,
    jWatchers: j.jWatchers,
    jTargets: j.jTargets,
    jTypes: j.jTypes,
    jReasons: j.jReasons,
    jVias: j.jVias,
    jAcked: j.jAcked,
    jNotified: j.jNotified,
    jMaterial: j.jMaterial,
    jRecordedAt: j.jRecordedAt,
  };
}

/** Writes a plan's cursor rows and journal entries in one statement (nothing when both are empty). */
export async function writeCursorPlan(
  db: StoreDb,
  client: PoolClient,
  plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] },
): Promise<void> {
  if (plan.cursorWrites.length === 0 && plan.journal.length === 0) return;
  await run(client, db.statements.writeCursorPlan, planArrays(plan.cursorWrites, plan.journal));
}

/** Appends `records` in order, in one statement (nothing when empty). */
export async function writeJournal(db: StoreDb, client: PoolClient, records: readonly CursorJournalRecord[]): Promise<void> {
  if (records.length === 0) return;
  await run(client, db.statements.insertJournal, journalArrays(records));
}

/** The entries of the pairs matching `filter` (all when empty), by position; one statement. A corrupt row is reported and left out. */
export async function readCursorJournal(db: StoreDb, filter: CursorFilter = {}): Promise<CursorJournalEntry[]> {
  return decodeStoredJournalEntries(db, 'readCursorJournal', await readAlone(db, readCursorJournalQuery(db.tables, filter)));
}
