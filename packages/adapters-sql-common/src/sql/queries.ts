// The statements both SQL adapters run with the same text, over either dialect's tables with named placeholders.
import type { SQL } from 'drizzle-orm';
import type { CursorFilter } from '@session-state/domain';

import { orm } from './drizzle.js';
import { p, q } from './statement.js';
import { CURSOR_FIELDS, EVENT_FIELDS, JOURNAL_FIELDS, PENDING_FIELDS, SESSION_EVENT_FIELDS, type SqlTables } from './tables.js';

type Cutoff = { readonly cutoff: number };
type Limit = { readonly limit: number };
type Pair = { readonly watcher: string; readonly target: string };

/** A column list for an `sql` template: the `fields` of `table`, in order. */
function listOf<T extends object>(table: T, fields: readonly (keyof T & string)[]): SQL {
  return orm.sql.join(fields.map((field) => table[field] as unknown as SQL), orm.sql`, `);
}

/** A journal entry retention may delete (JournalWindowEntry.removable): not the latest entry of a pair with a cursor, and no entry of its pair at or before {after}. */
function removableEntry({ cursors, cursorJournal }: SqlTables): SQL {
  const samePair = (alias: string) => orm.sql`"${orm.sql.raw(alias)}"."watcher" = ${cursorJournal.watcher} AND "${orm.sql.raw(alias)}"."target" = ${cursorJournal.target}`;
  return orm.sql`(NOT EXISTS (SELECT 1 FROM ${cursors} WHERE ${cursors.watcher} = ${cursorJournal.watcher} AND ${cursors.target} = ${cursorJournal.target})
  OR EXISTS (SELECT 1 FROM ${cursorJournal} AS "later" WHERE ${samePair('later')} AND "later"."position" > ${cursorJournal.position}))
  AND NOT EXISTS (SELECT 1 FROM ${cursorJournal} AS "older" WHERE ${samePair('older')} AND "older"."position" <= ${p('after')})`;
}

/** The statements both dialects share, by name; their parameters are the named placeholders shown. */
export function sharedStatements(tables: SqlTables) {
  const { events, heads, cursors, cursorJournal } = tables;
  const eventColumns = listOf(events, EVENT_FIELDS);
  const cursorColumns = listOf(cursors, CURSOR_FIELDS);
  const { sql } = orm;
  const agedJournalAfter = q<Cutoff & { readonly after: number }>(sql`SELECT 1 FROM ${cursorJournal} WHERE ${cursorJournal.recordedAt} < ${p('cutoff')} AND ${cursorJournal.position} > ${p('after')} ORDER BY ${cursorJournal.recordedAt} LIMIT 1`);
  return {
    /** {dedupeKey} → the event holding it, as StoredEventValues. */
    eventByDedupeKey: q<{ readonly dedupeKey: string }>(sql`SELECT ${eventColumns} FROM ${events} WHERE ${events.dedupeKey} = ${p('dedupeKey')}`),
    /** {since, sessionKey, limit} → [head, pruneWatermark, earliest retained (null when none), ...SessionEventValues] of the events after `since`, in one snapshot: null event columns when none, no row without a head. */
    // Key and limit behind a CAST: SQLite's planner looks into a bare bound LIMIT, or key beside an ORDER BY or min(), recompiling the statement at every call.
    changesSince: q<{ readonly since: number; readonly sessionKey: string; readonly limit: number }>(sql`SELECT ${heads.head}, ${heads.pruneWatermark}, (SELECT min(${events.sequence}) FROM ${events} WHERE ${events.sessionKey} = CAST(${p('sessionKey')} AS TEXT)), ${listOf(events, SESSION_EVENT_FIELDS)} FROM ${heads}
LEFT JOIN ${events} ON ${events.sessionKey} = ${heads.sessionKey} AND ${events.sequence} > ${p('since')}
WHERE ${heads.sessionKey} = CAST(${p('sessionKey')} AS TEXT)
ORDER BY ${events.sequence} LIMIT CAST(${p('limit')} AS BIGINT)`),
    /** {} → every head row above 0 (a row at 0 only orders a watch or delete), by session key. */
    allHeads: q(sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.head} > 0 ORDER BY ${heads.sessionKey}`),
    /** {watcher, target} → the pair's cursor, as CursorValues. */
    cursorOf: q<Pair>(sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ${p('target')}`),
    /** {watcher, target, limit} → a restart-scan page: the first `limit` pending cursors after that pair, in pair order, as PENDING_FIELDS rows. */
    pendingCursorsAfter: q<Pair & Limit>(sql`SELECT ${listOf(cursors, PENDING_FIELDS)} FROM ${cursors}
WHERE ${cursors.material} > ${cursors.acked} AND (${cursors.watcher}, ${cursors.target}) > (${p('watcher')}, ${p('target')})
ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`),
    /** {} → [sessions, highest head, pruned sessions, cursors, pending cursors, those holding a notice]. */
    overviewCounts: q(sql`SELECT count(*), coalesce(max(${heads.head}), 0), count(CASE WHEN ${heads.pruneWatermark} > 0 THEN 1 END),
  (SELECT count(*) FROM ${cursors}),
  (SELECT count(*) FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked}),
  (SELECT count(*) FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked} AND ${cursors.notified} > ${cursors.acked})
FROM ${heads} WHERE ${heads.head} > 0`),
    /** {limit} → the first `limit` head rows above 0, by session key. */
    firstHeads: q<Limit>(sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.head} > 0 ORDER BY ${heads.sessionKey} LIMIT ${p('limit')}`),
    /** {limit} → the first `limit` pending (then idle) cursors, by watcher then target, as CursorValues. */
    firstPendingCursors: q<Limit>(sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.material} > ${cursors.acked} ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`),
    firstIdleCursors: q<Limit>(sql`SELECT ${cursorColumns} FROM ${cursors} WHERE ${cursors.material} <= ${cursors.acked} ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`),
    /** Cursor deletes ({watcher}, {watcher, target}, {sessionKey} as watcher or target), returning each as CursorValues. */
    deleteCursorsOfWatcher: q<{ readonly watcher: string }>(sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`),
    deleteCursorOfPair: q<Pair>(sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ${p('target')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`),
    deleteCursorsOfSession: q<{ readonly sessionKey: string }>(sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('sessionKey')} OR ${cursors.target} = ${p('sessionKey')} RETURNING ${sql.raw(CURSOR_COLUMN_NAMES)}`),
    /** {maxRows} → [the highest sequence beyond the newest `maxRows` events] (no row within the cap), walking `maxRows` index entries, never counting the log. */
    capBoundary: q<{ readonly maxRows: number }>(sql`SELECT ${events.sequence} FROM ${events} ORDER BY ${events.sequence} DESC LIMIT 1 OFFSET ${p('maxRows')}`),
    /** {cutoff} → a row when an event appended before `cutoff` is left; the ORDER BY keeps a generic plan on the index. */
    agedLeft: q<Cutoff>(sql`SELECT 1 FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')} ORDER BY ${events.appendedAt} LIMIT 1`),
    /** {cutoff, cursorCutoff} → [events before `cutoff`, events at or after it, cursors untouched since `cursorCutoff`]. */
    pruneCounts: q<Cutoff & { readonly cursorCutoff: number }>(sql`SELECT (SELECT count(*) FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')}), (SELECT count(*) FROM ${events} WHERE ${events.appendedAt} >= ${p('cutoff')}), (SELECT count(*) FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cursorCutoff')})`),
    /** {cutoff} → a row when a cursor untouched since `cutoff` is left (ordered as agedLeft). */
    idleLeft: q<Cutoff>(sql`SELECT 1 FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} ORDER BY ${cursors.touchedAt} LIMIT 1`),
    /** {maxRows, limit} → [journal entries beyond the newest `maxRows`, counted up to `limit`]. */
    journalExcess: q<{ readonly maxRows: number } & Limit>(sql`SELECT count(*) FROM (SELECT 1 FROM ${cursorJournal} ORDER BY ${cursorJournal.position} DESC LIMIT ${p('limit')} OFFSET ${p('maxRows')}) AS beyond`),
    /** {after, size, beyondCap, cutoff} → [position, watcher, target, recordedAt, removable] of the first `size` entries after `after`, a
     * retention window; while the cap does not bind (`beyondCap` 0), `removable` only for aged entries, and no rows when none is left. */
    journalWindowEntries: q<{ readonly after: number; readonly size: number; readonly beyondCap: number } & Cutoff>(sql`SELECT ${listOf(cursorJournal, ['position', 'watcher', 'target', 'recordedAt'])},
  CASE WHEN ${p('beyondCap')} > 0 OR ${cursorJournal.recordedAt} < ${p('cutoff')} THEN ${removableEntry(tables)} ELSE false END
FROM ${cursorJournal} WHERE ${cursorJournal.position} > ${p('after')} AND (${p('beyondCap')} > 0 OR (${agedJournalAfter}) IS NOT NULL)
ORDER BY ${cursorJournal.position} LIMIT ${p('size')}`),
    /** {cutoff, after} → a row when an entry recorded before `cutoff` lies after `after` (ordered as agedLeft). */
    agedJournalAfter,
  };
}

export type SharedStatementName = keyof ReturnType<typeof sharedStatements>;

export type SharedStatementParams = { readonly [K in SharedStatementName]: ReturnType<typeof sharedStatements>[K] extends { readonly '~params'?: infer P extends object } ? P : never };

/** The RETURNING list of a cursor delete (SQLite's RETURNING takes no table prefix). */
const CURSOR_COLUMN_NAMES = 'watcher, target, acked, notified, material, touched_at, taken_until, ambient';

/** ` WHERE` equality on the filter's fields (nothing when it names none). */
function filtered(table: SqlTables['cursors' | 'cursorJournal'], { watcher, target }: CursorFilter): SQL {
  const where = orm.and(watcher === undefined ? undefined : orm.eq(table.watcher, watcher), target === undefined ? undefined : orm.eq(table.target, target));
  return where === undefined ? orm.sql`` : orm.sql` WHERE ${where}`;
}

/** The cursors matching `filter` (all when empty), by watcher then target, as CursorValues. */
export function listCursorsQuery({ cursors }: SqlTables, filter: CursorFilter): SQL {
  return orm.sql`SELECT ${listOf(cursors, CURSOR_FIELDS)} FROM ${cursors}${filtered(cursors, filter)} ORDER BY ${orm.asc(cursors.watcher)}, ${orm.asc(cursors.target)}`;
}

/** The journal entries of the pairs matching `filter` (all when empty), by position, in JOURNAL_FIELDS order. */
export function readCursorJournalQuery({ cursorJournal }: SqlTables, filter: CursorFilter): SQL {
  return orm.sql`SELECT ${listOf(cursorJournal, JOURNAL_FIELDS)} FROM ${cursorJournal}${filtered(cursorJournal, filter)} ORDER BY ${orm.asc(cursorJournal.position)}`;
}
