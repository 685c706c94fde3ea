// The statements both SQL adapters run with the same text, written once with drizzle's `sql`
// template over either dialect's tables (`SqlTables`): each renders them in its own dialect
// (placeholders `?` or `$n`, table names in the store's schema). Named placeholders only; see
// statement.ts. What differs by dialect (locks, array parameters, batch writes, sequences)
// stays in each adapter's statements.ts.
import type { SQL } from 'drizzle-orm';
import type { CursorFilter } from '@session-state/domain';

import { CURSOR_FIELDS, EVENT_FIELDS, JOURNAL_FIELDS, PENDING_FIELDS, SESSION_EVENT_FIELDS } from './columns.js';
import type { CursorsTable, JournalTable, SqlTables } from './tables.js';
import { orm } from './drizzle.js';

const { and, asc, eq, sql } = orm;

const p = (name: string) => sql.placeholder(name);

/** A column list for an `sql` template: the `fields` of `table`, in order. */
function listOf<T extends object>(table: T, fields: readonly (keyof T & string)[]): SQL {
  return sql.join(
    fields.map((field) => table[field] as unknown as SQL),
    sql`, `,
  );
}

/**
 * The head, the prune watermark and the retained events after `since` with the given event
 * columns, in ONE statement so they come from one snapshot: one row per event; one row with
 * null event columns when there are none; no row when the session has no head (see changesPage.ts).
 */
function changesAfter({ events, heads }: SqlTables, columns: SQL): SQL {
  return sql`SELECT ${heads.head}, ${heads.pruneWatermark}, ${columns} FROM ${heads}
LEFT JOIN ${events} ON ${events.sessionKey} = ${heads.sessionKey} AND ${events.sequence} > ${p('since')}
WHERE ${heads.sessionKey} = ${p('sessionKey')}
ORDER BY ${events.sequence} LIMIT ${p('limit')}`;
}

/**
 * A journal entry retention may delete: its pair has no cursor, or a later entry of the pair
 * exists (the latest entry of a live pair stays, so its cursor can always be replayed:
 * planJournalPrune's rule). Both are index lookups (the cursors' primary key, cursor_journal_pair).
 */
export function removableEntry({ cursors, cursorJournal }: SqlTables): SQL {
  return sql`(NOT EXISTS (SELECT 1 FROM ${cursors} WHERE ${cursors.watcher} = ${cursorJournal.watcher} AND ${cursors.target} = ${cursorJournal.target})
  OR EXISTS (SELECT 1 FROM ${cursorJournal} AS "later" WHERE "later"."watcher" = ${cursorJournal.watcher} AND "later"."target" = ${cursorJournal.target} AND "later"."position" > ${cursorJournal.position}))`;
}

/** The statements both dialects share, by name; their parameters are the named placeholders shown. */
export function sharedStatements(tables: SqlTables) {
  const { events, heads, cursors, cursorJournal } = tables;
  const eventColumns = listOf(events, EVENT_FIELDS);
  const cursorColumns = listOf(cursors, CURSOR_FIELDS);
  return {
    /** {dedupeKey} → the event holding it, as StoredEventValues. */
    eventByDedupeKey: sql`SELECT ${eventColumns} FROM ${events} WHERE ${events.dedupeKey} = ${p('dedupeKey')}`,
    /** {since, sessionKey, limit} → [head, pruneWatermark, ...StoredEventValues] rows. */
    changesSince: changesAfter(tables, eventColumns),
    /** As changesSince with only the columns `status` returns (SessionEventValues). */
    sessionChangesSince: changesAfter(tables, listOf(events, SESSION_EVENT_FIELDS)),
    /** {} → every head row above 0 (a row at 0 only orders a watch or delete in PostgreSQL), by session key. */
    allHeads: sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.head} > 0 ORDER BY ${heads.sessionKey}`,
    /** {watcher, target} → the pair's cursor, as CursorValues. */
    cursorOf: sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ${p('target')}`,
    /** {} → every pending cursor (material > acked), by watcher then target, as PENDING_FIELDS rows (the pending index covers them). */
    pendingCursors: sql`SELECT ${listOf(cursors, PENDING_FIELDS)} FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked} ORDER BY ${cursors.watcher}, ${cursors.target}`,
    /** {} → [number of pending cursors (material > acked)], counted on the pending index alone. */
    countPendingCursors: sql`SELECT count(*) FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked}`,
    /**
     * {} → [sessions, highest head, pruned sessions, cursors, pending cursors, pending cursors
     * holding a notice]: the overview's counts in one statement (one pass over the heads; the
     * pending counts on the pending index alone).
     */
    overviewCounts: sql`SELECT count(*), coalesce(max(${heads.head}), 0), count(CASE WHEN ${heads.pruneWatermark} > 0 THEN 1 END),
  (SELECT count(*) FROM ${cursors}),
  (SELECT count(*) FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked}),
  (SELECT count(*) FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked} AND ${cursors.notified} > ${cursors.acked})
FROM ${heads} WHERE ${heads.head} > 0`,
    /** {limit} → the first `limit` head rows above 0, by session key (as allHeads). */
    firstHeads: sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.head} > 0 ORDER BY ${heads.sessionKey} LIMIT ${p('limit')}`,
    /** {limit} → the first `limit` pending cursors (material > acked), by watcher then target, as CursorValues. */
    firstPendingCursors: sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked} ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`,
    /** {limit} → the first `limit` idle cursors (material <= acked), by watcher then target, as CursorValues. */
    firstIdleCursors: sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.material} <= ${cursors.acked} ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`,
    /** {watcher} → deletes its cursors, returning each as CursorValues. */
    deleteCursorsOfWatcher: sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`,
    /** {watcher, target} → deletes the pair's cursor, returning it as CursorValues (no row when it had none). */
    deleteCursorOfPair: sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ${p('target')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`,
    /** {sessionKey} → deletes every cursor it is watcher or target of, returning each as CursorValues. */
    deleteCursorsOfSession: sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('sessionKey')} OR ${cursors.target} = ${p('sessionKey')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`,
    /**
     * {maxRows} → [the highest sequence beyond the newest `maxRows` events], or no row when the
     * log is within the cap. It walks `maxRows` entries of the sequence order, not the whole log
     * (a `count(*)` per batch read every row: 7.7 ms at 1,000,000 rows, most of a batch's time).
     */
    capBoundary: sql`SELECT ${events.sequence} FROM ${events} ORDER BY ${events.sequence} DESC LIMIT 1 OFFSET ${p('maxRows')}`,
    /**
     * {cutoff} → one row when an event appended before `cutoff` is left. The ORDER BY keeps a
     * generic plan (PostgreSQL's, after a few executions) on the index: without it a LIMIT 1
     * with an unknown cutoff is planned as a scan of the whole table.
     */
    agedLeft: sql`SELECT 1 FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')} ORDER BY ${events.appendedAt} LIMIT 1`,
    /**
     * {cutoff, cursorCutoff} → [events appended before `cutoff`, events at or after it, cursors
     * untouched since `cursorCutoff`]: what a prune would find (`previewPrune`).
     */
    pruneCounts: sql`SELECT (SELECT count(*) FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')}), (SELECT count(*) FROM ${events} WHERE ${events.appendedAt} >= ${p('cutoff')}), (SELECT count(*) FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cursorCutoff')})`,
    /** {cutoff} → one row when a cursor untouched since `cutoff` is left (ordered to stay on the index, as agedLeft). */
    idleLeft: sql`SELECT 1 FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} ORDER BY ${cursors.touchedAt} LIMIT 1`,
    /**
     * {maxRows, limit} → [how many journal entries lie beyond the newest `maxRows`, counted up to
     * `limit`]: it walks at most `maxRows + limit` entries, not the whole journal.
     */
    journalExcess: sql`SELECT count(*) FROM (SELECT 1 FROM ${cursorJournal} ORDER BY ${cursorJournal.position} DESC LIMIT ${p('limit')} OFFSET ${p('maxRows')}) AS beyond`,
    /**
     * {after, size} → [the highest position of the retention window: the first `size` entries
     * after `after`] (null when none lies after it). It walks `size` entries of the position order.
     */
    journalWindow: sql`SELECT max("position") FROM (SELECT ${cursorJournal.position} FROM ${cursorJournal} WHERE ${cursorJournal.position} > ${p('after')} ORDER BY ${cursorJournal.position} LIMIT ${p('size')}) AS "window"`,
    /** {after} → one row when an entry lies after `after` (the window did not reach the end of the journal). */
    journalEntryAfter: sql`SELECT 1 FROM ${cursorJournal} WHERE ${cursorJournal.position} > ${p('after')} ORDER BY ${cursorJournal.position} LIMIT 1`,
    /**
     * {cutoff, after} → one row when an entry recorded before `cutoff` lies after `after`; it walks
     * the recorded_at index over the entries recorded before `cutoff` (ordered to stay on the
     * index, as agedLeft), reading no removable rule.
     */
    agedJournalAfter: sql`SELECT 1 FROM ${cursorJournal} WHERE ${cursorJournal.recordedAt} < ${p('cutoff')} AND ${cursorJournal.position} > ${p('after')} ORDER BY ${cursorJournal.recordedAt} LIMIT 1`,
  };
}

/** The names of the shared statements. */
export type SharedStatementName = keyof ReturnType<typeof sharedStatements>;

type NoParams = Record<string, never>;
interface Cutoff {
  readonly cutoff: number;
}
interface ChangesParams {
  readonly since: number;
  readonly sessionKey: string;
  readonly limit: number;
}

/** The named values each shared statement takes. */
export interface SharedStatementParams {
  readonly eventByDedupeKey: { readonly dedupeKey: string };
  readonly changesSince: ChangesParams;
  readonly sessionChangesSince: ChangesParams;
  readonly allHeads: NoParams;
  readonly cursorOf: { readonly watcher: string; readonly target: string };
  readonly pendingCursors: NoParams;
  readonly countPendingCursors: NoParams;
  readonly overviewCounts: NoParams;
  readonly firstHeads: { readonly limit: number };
  readonly firstPendingCursors: { readonly limit: number };
  readonly firstIdleCursors: { readonly limit: number };
  readonly deleteCursorsOfWatcher: { readonly watcher: string };
  readonly deleteCursorOfPair: { readonly watcher: string; readonly target: string };
  readonly deleteCursorsOfSession: { readonly sessionKey: string };
  readonly capBoundary: { readonly maxRows: number };
  readonly agedLeft: Cutoff;
  readonly idleLeft: Cutoff;
  readonly pruneCounts: Cutoff & { readonly cursorCutoff: number };
  readonly journalExcess: { readonly maxRows: number; readonly limit: number };
  readonly journalWindow: { readonly after: number; readonly size: number };
  readonly journalEntryAfter: { readonly after: number };
  readonly agedJournalAfter: Cutoff & { readonly after: number };
}

/** The RETURNING list of a cursor delete: CursorValues, by the cursors table's column names (RETURNING takes no table prefix in SQLite). */
const CURSOR_COLUMN_NAMES = 'watcher, target, acked, notified, material, touched_at';

/** Equality on the filter's fields (all rows when it names none). */
function cursorFilterWhere(table: CursorsTable | JournalTable, filter: CursorFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.watcher !== undefined) conditions.push(eq(table.watcher, filter.watcher));
  if (filter.target !== undefined) conditions.push(eq(table.target, filter.target));
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/** The cursors matching `filter` (all when empty), by watcher then target, as CursorValues. */
export function listCursorsQuery({ cursors }: SqlTables, filter: CursorFilter): SQL {
  const where = cursorFilterWhere(cursors, filter);
  return sql`SELECT ${listOf(cursors, CURSOR_FIELDS)} FROM ${cursors}${where === undefined ? sql`` : sql` WHERE ${where}`} ORDER BY ${asc(cursors.watcher)}, ${asc(cursors.target)}`;
}

/** The journal entries of the pairs matching `filter` (all when empty), by position, as StoredJournalValues. */
export function readCursorJournalQuery({ cursorJournal }: SqlTables, filter: CursorFilter): SQL {
  const where = cursorFilterWhere(cursorJournal, filter);
  return sql`SELECT ${listOf(cursorJournal, JOURNAL_FIELDS)} FROM ${cursorJournal}${where === undefined ? sql`` : sql` WHERE ${where}`} ORDER BY ${asc(cursorJournal.position)}`;
}

