// The cursor journal: writes a plan's cursor rows and journal entries (inside the caller's
// transaction, after its locking read) as arrays for one `unnest` statement, and reads the
// journal back for `explain` and replay.
import { decodeStoredJournalEntries, journalParams, readCursorJournalQuery, type JournalParams } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorJournalEntry, CursorJournalRecord, CursorRow } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { CursorArrays, JournalArrays } from './statements';
import type { StoreDb } from './storeDb';
import { readAlone, run } from './transaction';

/** One array per placeholder of `fields` (placeholder → the field of `items` it collects), in item order. */
function arraysOf<T extends object, A>(items: readonly T[], fields: { readonly [K in keyof A]: keyof T }): A {
  const arrays: Record<string, unknown[]> = {};
  for (const [placeholder, field] of Object.entries(fields) as [string, keyof T][]) arrays[placeholder] = items.map((item) => item[field]);
  return arrays as A;
}

const JOURNAL_ARRAYS = {
  jWatchers: 'watcher',
  jTargets: 'target',
  jTypes: 'type',
  jReasons: 'reason',
  jVias: 'via',
  jAcked: 'acked',
  jNotified: 'notified',
  jMaterial: 'material',
  jRecordedAt: 'recordedAt',
} as const;

const CURSOR_ARRAYS = { watchers: 'watcher', targets: 'target', acked: 'acked', notified: 'notified', material: 'material', touchedAt: 'touchedAt' } as const;

/** The journal placeholders' values: one array per JournalParams field, in record order. */
const journalArrays = (records: readonly CursorJournalRecord[]): JournalArrays => arraysOf<JournalParams, JournalArrays>(records.map(journalParams), JOURNAL_ARRAYS);

/** Writes a plan's cursor rows and journal entries in one statement (nothing when both are empty). */
export async function writeCursorPlan(
  db: StoreDb,
  client: PoolClient,
  plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] },
): Promise<void> {
  if (plan.cursorWrites.length === 0 && plan.journal.length === 0) return;
  await run(client, db.statements.writeCursorPlan, { ...arraysOf<CursorRow, CursorArrays>(plan.cursorWrites, CURSOR_ARRAYS), ...journalArrays(plan.journal) });
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
