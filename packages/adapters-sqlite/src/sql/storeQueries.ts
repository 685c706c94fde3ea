// SQLite's own statements as drizzle queries (the shared ones are adapters-sql-common's), rendered ahead of time (render.ts),
// with the append's statements on the head row's notify marks (operations/logMaterial.ts).
import type { CursorFilter } from '@session-state/domain';
import { columnsOf, CURSOR_FIELDS, listCursorsQuery, p, PENDING_FIELDS, q, readCursorJournalQuery, sharedStatements, type EventParams, type JournalParams, type Renderable } from '@session-state/adapters-sql-common';

import { queryBuilder as orm } from '../db/queryBuilder.js';
import { cursorJournal, cursors, events, heads, tables } from '../schema.js';
import { orm as drizzle } from '../db/drizzle.js';

const { and, asc, count, eq, gt, gte, inArray, lt, lte, max, or, sql } = drizzle;
type SQL = ReturnType<typeof sql>;

/** The order insertEvent takes its values in (render.ts checks it against the SQL). */
const INSERT_EVENT_ORDER = ['sessionKey', 'kind', 'actorType', 'actorSessionKey', 'summary', 'payload', 'dedupeKey', 'occurredAt', 'appendedAt'] as const;
/** A query bound by position: `bindOrder` must be the order drizzle renders its placeholders in (render.ts checks it). */
export type Positional<V extends readonly unknown[]> = { readonly '~params'?: V; readonly query: Renderable; readonly bindOrder: readonly string[] };
const positional = <V extends readonly unknown[]>(query: Renderable, bindOrder: readonly string[]): Positional<V> => ({ query, bindOrder });
/** The values of `P` named by `T`, as a tuple in that order. */
type InOrder<P, T extends readonly (keyof P)[]> = { readonly [I in keyof T]: P[T[I] & keyof P] };

/** The order updateCursor takes its values in (render.ts checks it against the SQL). */
const UPDATE_CURSOR_ORDER = ['acked', 'notified', 'material', 'touchedAt', 'takenUntil', 'watcher', 'target'] as const;

export type CursorParams = { readonly [F in (typeof CURSOR_FIELDS)[number]]: F extends 'watcher' | 'target' ? string : F extends 'takenUntil' ? number | null : number };
type HeadParams = { readonly sessionKey: string; readonly head: number; readonly pruneWatermark: number };
type Cutoff = { readonly cutoff: number };
type Limit = { readonly limit: number };
/** A filter's values as named placeholders. */
const byPair = { watcher: p('watcher'), target: p('target') } as unknown as Required<CursorFilter>;

export function ownQueries() {
  /** The pending cursors (also meeting `where`) after the pair {watcher, target}, in pair order, `limit` of them (as the shared pendingCursorsAfter). */
  const pendingAfterPair = (...where: SQL[]) =>
    orm
      .select(columnsOf(cursors, PENDING_FIELDS))
      .from(cursors)
      .where(and(...where, gt(cursors.material, cursors.acked), sql`(${cursors.watcher}, ${cursors.target}) > (${p('watcher')}, ${p('target')})`))
      .orderBy(asc(cursors.watcher), asc(cursors.target))
      .limit(p('limit'));
  /** [sequence, sessionKey] of events, to be narrowed. */
  const eventKeys = () => orm.select({ sequence: events.sequence, sessionKey: events.sessionKey }).from(events);
  return {
    /** {keys: a JSON array} → [sessionKey, head, pruneWatermark] of each key with a head, in array order (CROSS JOIN keeps json_each the outer loop). */
    headsOfKeys: q<{ keys: string }>(
      sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM json_each(${p('keys')}) AS wanted CROSS JOIN ${heads} ON ${heads.sessionKey} = wanted.value`,
    ),

    /** {targets: a JSON array, watcher, target, limit} → the next `limit` pending cursors on those targets after the pair, in pair order. */
    pendingCursorsOn: q<{ targets: string; watcher: string; target: string; limit: number }>(
      pendingAfterPair(sql`${cursors.target} IN (SELECT value FROM json_each(${p('targets')}))`),
    ),

    /** {sessionKey} → [head, pruneWatermark]. */
    headOf: q<{ sessionKey: string }>(orm.select({ head: heads.head, pruneWatermark: heads.pruneWatermark }).from(heads).where(eq(heads.sessionKey, p('sessionKey')))),

    /** A session's first head row, as planHeadWrite gives it. */
    insertHead: q<HeadParams>(orm.insert(heads).values({ sessionKey: p('sessionKey'), head: p('head'), pruneWatermark: p('pruneWatermark') })),

    /** Writes the values planHeadWrite computed (drizzle's update takes placeholders only inside sql fragments). */
    updateHead: q<HeadParams>(orm.update(heads).set({ head: sql`${p('head')}`, pruneWatermark: sql`${p('pruneWatermark')}` }).where(eq(heads.sessionKey, p('sessionKey')))),

    /** Appends one journal entry; its position is the next AUTOINCREMENT value. */
    insertJournal: q<JournalParams>(
      orm.insert(cursorJournal).values({ watcher: p('watcher'), target: p('target'), type: p('type'), reason: p('reason'), via: p('via'), acked: p('acked'), notified: p('notified'), material: p('material'), recordedAt: p('recordedAt'), takenUntil: p('takenUntil'), ambient: p('ambient') }),
    ),

    /** Writes a cursor row whole (insert or overwrite). */
    upsertCursor: q<CursorParams>(
      orm
        .insert(cursors)
        .values({ watcher: p('watcher'), target: p('target'), acked: p('acked'), notified: p('notified'), material: p('material'), touchedAt: p('touchedAt'), takenUntil: p('takenUntil'), ambient: p('ambient') })
        .onConflictDoUpdate({
          target: [cursors.watcher, cursors.target],
          set: { acked: sql`excluded.acked`, notified: sql`excluded.notified`, material: sql`excluded.material`, touchedAt: sql`excluded.touched_at`, takenUntil: sql`excluded.taken_until`, ambient: sql`excluded.ambient` },
        }),
    ),

    // --- listCursors and readCursorJournal: a statement per filter (every pair, a watcher's, a target's, one pair; see filterStatement in statements.ts)
    listCursorsAll: q<CursorFilter>(listCursorsQuery(tables, {})),
    listCursorsOfWatcher: q<CursorFilter>(listCursorsQuery(tables, { watcher: byPair.watcher })),
    listCursorsOfTarget: q<CursorFilter>(listCursorsQuery(tables, { target: byPair.target })),
    listCursorsOfPair: q<CursorFilter>(listCursorsQuery(tables, byPair)),
    journalAll: q<CursorFilter>(readCursorJournalQuery(tables, {})),
    journalOfWatcher: q<CursorFilter>(readCursorJournalQuery(tables, { watcher: byPair.watcher })),
    journalOfTarget: q<CursorFilter>(readCursorJournalQuery(tables, { target: byPair.target })),
    journalOfPair: q<CursorFilter>(readCursorJournalQuery(tables, byPair)),

    // --- deleteSession (removal.ts)

    /** {sessionKey} → [the session's event count, its highest sequence or null]. */
    sessionEvents: q<{ sessionKey: string }>(orm.select({ n: count(), highest: max(events.sequence) }).from(events).where(eq(events.sessionKey, p('sessionKey')))),
    /** {sessionKey} → deletes the session's events. */
    deleteSessionEvents: q<{ sessionKey: string }>(orm.delete(events).where(eq(events.sessionKey, p('sessionKey')))),

    // --- retention: one bounded batch (prune.ts)

    /** {cutoff, limit} → the oldest appends before `cutoff`, as [sequence, sessionKey], oldest first. */
    agedEvents: q<Cutoff & Limit>(
      eventKeys().where(lt(events.appendedAt, p('cutoff'))).orderBy(asc(events.appendedAt), asc(events.sequence)).limit(p('limit')),
    ),

    /** {upTo, limit} → the lowest sequences (the earliest appends) up to `upTo`, as [sequence, sessionKey], lowest first. */
    lowestEvents: q<Limit & { upTo: number }>(eventKeys().where(lte(events.sequence, p('upTo'))).orderBy(asc(events.sequence)).limit(p('limit'))),

    /** {upTo, offset} → the sequence `offset` places above the lowest up to `upTo` (where a worker batch ends), or none. */
    capRangeEnd: q<{ upTo: number; offset: number }>(
      sql`SELECT ${events.sequence} FROM ${events} WHERE ${events.sequence} <= ${p('upTo')} ORDER BY ${events.sequence} LIMIT 1 OFFSET ${p('offset')}`,
    ),

    /** {to} → [sessionKey, highest sequence] of every session with events up to `to`: what a worker batch deletes from each. */
    victimSessions: q<{ to: number }>(
      orm.select({ sessionKey: events.sessionKey, highest: sql`max(${events.sequence})` }).from(events).where(lte(events.sequence, p('to'))).groupBy(events.sessionKey),
    ),

    /** {keys: a JSON array of session keys} → the cursors on those targets, as CursorValues (json_each, as headsOfKeys). */
    cursorsOnTargets: q<{ keys: string }>(
      sql`SELECT ${sql.join(CURSOR_FIELDS.map((field) => cursors[field]), sql`, `)} FROM json_each(${p('keys')}) AS wanted CROSS JOIN ${cursors} ON ${cursors.target} = wanted.value`,
    ),

    /** {sequence} → deletes that event. */
    deleteEvent: q<{ sequence: number }>(orm.delete(events).where(eq(events.sequence, p('sequence')))),

    /** {from, to} → deletes the events with sequences in [from, to]: one statement for a run of the lowest sequences. */
    deleteEventRange: q<{ from: number; to: number }>(orm.delete(events).where(and(gte(events.sequence, p('from')), lte(events.sequence, p('to'))))),

    /** {cutoff, limit} → deletes up to `limit` cursors untouched since `cutoff` (a raise by the notify marks touches), as CursorValues. */
    expireIdleCursors: q<Cutoff & Limit>(
      orm
        .delete(cursors)
        .where(
          inArray(
            sql`rowid`,
            orm
              .select({ rowid: sql`rowid` })
              .from(cursors)
              .where(
                or(
                  and(lt(cursors.touchedAt, p('cutoff')), sql`NOT (${cursors.material} > ${cursors.acked} AND EXISTS (${raisedByMarks('>=')}))`),
                  sql`${cursors.material} > ${cursors.acked} AND EXISTS (${raisedByMarks('<')})`,
                ),
              )
              .limit(p('limit')),
          ),
        )
        .returning(columnsOf(cursors, CURSOR_FIELDS)),
    ),

    /** {positions: a JSON array} → deletes those journal entries (a retention window's plan). */
    deleteJournalEntries: q<{ positions: string }>(sql`DELETE FROM ${cursorJournal} WHERE ${cursorJournal.position} IN (SELECT value FROM json_each(${p('positions')}))`),
  };
}

/** The append's hot statements, bound by position. */
export function positionalQueries() {
  return {
    /** The shared changesSince (its key twice), bound by position: a status read runs it at every poll. */
    changesSince: positional<readonly [sessionKey: string, since: number, sessionKey: string, limit: number]>(sharedStatements(tables).changesSince, ['sessionKey', 'since', 'sessionKey', 'limit']),

    /** (target) → every cursor on it, as CursorValues; bound by position (once per record). */
    cursorsOnTarget: positional<readonly [target: string]>(orm.select(columnsOf(cursors, CURSOR_FIELDS)).from(cursors).where(eq(cursors.target, p('target'))), ['target']),

    /** Inserts an event, bound by position (INSERT_EVENT_ORDER); the sequence is `lastInsertRowid`. */
    insertEvent: positional<InOrder<EventParams, typeof INSERT_EVENT_ORDER>>(
      orm.insert(events).values(Object.fromEntries(INSERT_EVENT_ORDER.map((name) => [name, p(name)])) as Record<(typeof INSERT_EVENT_ORDER)[number], ReturnType<typeof p>>),
      INSERT_EVENT_ORDER,
    ),

    /** Moves a cursor just read; bound by position (UPDATE_CURSOR_ORDER, through moveCursor): an append runs it per watcher. */
    updateCursor: positional<InOrder<CursorParams, typeof UPDATE_CURSOR_ORDER>>(
      orm
        .update(cursors)
        .set({ acked: sql`${p('acked')}`, notified: sql`${p('notified')}`, material: sql`${p('material')}`, touchedAt: sql`${p('touchedAt')}`, takenUntil: sql`${p('takenUntil')}` })
        .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target')))),
      UPDATE_CURSOR_ORDER,
    ),
  };
}

/** For expiry: a row when the target's notify marks raised this pending cursor's material at or after (`'>='`) or before (`'<'`) the cutoff. */
export function raisedByMarks(when: '>=' | '<') {
  const cmp = sql.raw(when);
  return sql`SELECT 1 FROM ${heads} AS marks WHERE marks.session_key = ${cursors.target} AND CASE WHEN ${cursors.watcher} IS marks.last_notify_actor THEN marks.other_notify > ${cursors.material} AND marks.other_notify_at ${cmp} ${p('cutoff')} ELSE marks.last_notify > ${cursors.material} AND marks.last_notify_at ${cmp} ${p('cutoff')} END`;
}

/** The head row's notify marks: the append writes them, every cursor reader reads them. */
export function headMarkQueries() {
  const notifies = sql`${p('notifies')} = 1`;
  // A notifying event of another actor than the newest one's makes that newest one "other".
  const newActor = sql`${notifies} AND excluded.last_notify_actor IS NOT ${heads.lastNotifyActor}`;
  return {
    /** An append's head write (the head becomes the sequence, the prune watermark stays), moving the notify marks when the event notifies (`notifies` 1, else 0). */
    writeAppendedHead: q<{ sessionKey: string; head: number; notifies: number; actor: string | null; at: number }>(
      orm
        .insert(heads)
        .values({
          sessionKey: p('sessionKey'),
          head: p('head'),
          pruneWatermark: sql`0`,
          lastNotify: sql`CASE WHEN ${notifies} THEN ${p('head')} END`,
          lastNotifyActor: sql`CASE WHEN ${notifies} THEN ${p('actor')} END`,
          lastNotifyAt: sql`CASE WHEN ${notifies} THEN ${p('at')} END`,
        })
        .onConflictDoUpdate({
          target: heads.sessionKey,
          set: {
            head: sql`excluded.head`,
            otherNotify: sql`CASE WHEN ${newActor} THEN ${heads.lastNotify} ELSE ${heads.otherNotify} END`,
            otherNotifyAt: sql`CASE WHEN ${newActor} THEN ${heads.lastNotifyAt} ELSE ${heads.otherNotifyAt} END`,
            lastNotify: sql`CASE WHEN ${notifies} THEN excluded.last_notify ELSE ${heads.lastNotify} END`,
            lastNotifyActor: sql`CASE WHEN ${notifies} THEN excluded.last_notify_actor ELSE ${heads.lastNotifyActor} END`,
            lastNotifyAt: sql`CASE WHEN ${notifies} THEN excluded.last_notify_at ELSE ${heads.lastNotifyAt} END`,
          },
        }),
    ),
    /** {sessionKey} → [lastNotify, lastNotifyActor, lastNotifyAt, otherNotify, otherNotifyAt]. */
    marksOf: q<{ sessionKey: string }>(
      orm
        .select({ last: heads.lastNotify, lastActor: heads.lastNotifyActor, lastAt: heads.lastNotifyAt, other: heads.otherNotify, otherAt: heads.otherNotifyAt })
        .from(heads)
        .where(sql`${heads.sessionKey} = ${p('sessionKey')}`),
    ),
  };
}
