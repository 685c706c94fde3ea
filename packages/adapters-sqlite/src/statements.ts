// The hot queries, written with drizzle's query builder and `sql.placeholder`, compiled ONCE at
// open into better-sqlite3 prepared statements (see `compile`): reads return positional rows
// that the adapter decodes by hand, so no per-call placeholder mapping and no per-row key mapping.
import type Database from 'better-sqlite3';
import { and, asc, count, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { CursorJournalValues } from '@session-state/domain';

import { compile } from './compile';
import { cursorJournal, cursors, events, heads, type schema } from './schema';

type Orm = BetterSQLite3Database<typeof schema>;

// --- column lists (their order is EventValues / CursorValues) ------------------------------

export const eventColumns = {
  sequence: events.sequence,
  sessionKey: events.sessionKey,
  kind: events.kind,
  actorType: events.actorType,
  actorSessionKey: events.actorSessionKey,
  summary: events.summary,
  payload: events.payload,
  dedupeKey: events.dedupeKey,
  occurredAt: events.occurredAt,
  appendedAt: events.appendedAt,
};

/** The columns `status` returns, in the order of SessionEventValues (see eventRow.ts). */
export const sessionEventColumns = {
  sequence: events.sequence,
  kind: events.kind,
  actorType: events.actorType,
  actorSessionKey: events.actorSessionKey,
  summary: events.summary,
  payload: events.payload,
  occurredAt: events.occurredAt,
};

export const cursorColumns = {
  watcher: cursors.watcher,
  target: cursors.target,
  acked: cursors.acked,
  notified: cursors.notified,
  material: cursors.material,
  touchedAt: cursors.touchedAt,
};

/** The columns of a journal select, in StoredCursorJournalValues order (the domain's cursorJournal.ts). */
export const journalColumns = {
  position: cursorJournal.position,
  watcher: cursorJournal.watcher,
  target: cursorJournal.target,
  type: cursorJournal.type,
  reason: cursorJournal.reason,
  via: cursorJournal.via,
  acked: cursorJournal.acked,
  notified: cursorJournal.notified,
  material: cursorJournal.material,
  recordedAt: cursorJournal.recordedAt,
};

const p = (name: string) => sql.placeholder(name);

/**
 * A journal entry retention may delete: its pair has no cursor, or a later entry of the pair
 * exists (the latest entry of a live pair stays, so its cursor can always be replayed). Both
 * are index lookups (the cursors' primary key, cursor_journal_pair).
 */
const removableEntry = sql`(NOT EXISTS (SELECT 1 FROM ${cursors} WHERE ${cursors.watcher} = ${cursorJournal.watcher} AND ${cursors.target} = ${cursorJournal.target})
  OR EXISTS (SELECT 1 FROM ${cursorJournal} AS "later" WHERE "later"."watcher" = ${cursorJournal.watcher} AND "later"."target" = ${cursorJournal.target} AND "later"."position" > ${cursorJournal.position}))`;

// --- the statements ------------------------------------------------------------------------

type InsertEventArgs = [
  sessionKey: string,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: string | null,
  dedupeKey: string | null,
  occurredAt: string,
  appendedAt: number,
];
type UpdateCursorArgs = [acked: number, notified: number, material: number, touchedAt: number, watcher: string, target: string];
type CursorArgs = [watcher: string, target: string, acked: number, notified: number, material: number, touchedAt: number];
type HeadArgs = [sessionKey: string, head: number, pruneWatermark: number];
type UpdateHeadArgs = [head: number, pruneWatermark: number, sessionKey: string];

/** The compiled statements; reads marked "values" return positional arrays. */
export interface Statements {
  readonly eventByDedupeKey: Database.Statement<[dedupeKey: string]>;
  readonly cursorsOnTarget: Database.Statement<[target: string]>;
  readonly insertEvent: Database.Statement<InsertEventArgs>;
  readonly insertHead: Database.Statement<HeadArgs>;
  readonly updateHead: Database.Statement<UpdateHeadArgs>;
  readonly insertJournal: Database.Statement<CursorJournalValues>;
  readonly upsertCursor: Database.Statement<CursorArgs>;
  readonly updateCursor: Database.Statement<UpdateCursorArgs>;
  readonly changesSince: Database.Statement<[since: number, sessionKey: string, limit: number]>;
  readonly sessionChangesSince: Database.Statement<[since: number, sessionKey: string, limit: number]>;
  readonly headOf: Database.Statement<[sessionKey: string]>;
  readonly cursorOf: Database.Statement<[watcher: string, target: string]>;
  readonly agedEvents: Database.Statement<[cutoff: number, limit: number]>;
  readonly lowestEvents: Database.Statement<[limit: number]>;
  readonly deleteEvent: Database.Statement<[sequence: number]>;
  readonly countEvents: Database.Statement<[]>;
  readonly expireIdleCursors: Database.Statement<[cutoff: number, limit: number]>;
  readonly agedLeft: Database.Statement<[cutoff: number, limit: 1]>;
  readonly idleLeft: Database.Statement<[cutoff: number, limit: 1]>;
  readonly deleteAgedJournal: Database.Statement<[cutoff: number, limit: number]>;
  readonly deleteLowestJournal: Database.Statement<[limit: number]>;
  readonly countJournal: Database.Statement<[]>;
  readonly agedJournalLeft: Database.Statement<[cutoff: number, limit: 1]>;
  readonly removableJournalLeft: Database.Statement<[limit: 1]>;
}

const CHANGES_PARAMS = ['since', 'sessionKey', 'limit'] as const;

/**
 * The head, the prune watermark and the retained events after `since` with the given event
 * columns, in ONE statement so they come from one snapshot: one row per event; one row with
 * null event columns when there are none; no row when the session has no head.
 */
function changesAfter(orm: Orm, columns: typeof eventColumns | typeof sessionEventColumns) {
  return orm
    .select({ head: heads.head, pruneWatermark: heads.pruneWatermark, ...columns })
    .from(heads)
    .leftJoin(events, and(eq(events.sessionKey, heads.sessionKey), gt(events.sequence, p('since'))))
    .where(eq(heads.sessionKey, p('sessionKey')))
    .orderBy(asc(events.sequence))
    .limit(p('limit'));
}

/** Compiles every hot statement once, at open. */
export function prepareStatements(client: Database.Database, orm: Orm): Statements {
  return {
    /** (dedupeKey) → the event holding it, as EventValues. */
    eventByDedupeKey: compile<[dedupeKey: string]>(
      client,
      orm.select(eventColumns).from(events).where(eq(events.dedupeKey, p('dedupeKey'))),
      ['dedupeKey'],
      { raw: true },
    ),

    /** (target) → every cursor on it, as CursorValues. */
    cursorsOnTarget: compile<[target: string]>(
      client,
      orm.select(cursorColumns).from(cursors).where(eq(cursors.target, p('target'))),
      ['target'],
      { raw: true },
    ),

    /** Inserts an event; the sequence is the run result's `lastInsertRowid`. */
    insertEvent: compile<InsertEventArgs>(
      client,
      orm.insert(events).values({
        sessionKey: p('sessionKey'),
        kind: p('kind'),
        actorType: p('actorType'),
        actorSessionKey: p('actorSessionKey'),
        summary: p('summary'),
        payload: p('payload'),
        dedupeKey: p('dedupeKey'),
        occurredAt: p('occurredAt'),
        appendedAt: p('appendedAt'),
      }),
      ['sessionKey', 'kind', 'actorType', 'actorSessionKey', 'summary', 'payload', 'dedupeKey', 'occurredAt', 'appendedAt'],
    ),

    /** (sessionKey, head, pruneWatermark): a session's first head row, as the domain's planHeadWrite gives it. */
    insertHead: compile<HeadArgs>(
      client,
      orm.insert(heads).values({ sessionKey: p('sessionKey'), head: p('head'), pruneWatermark: p('pruneWatermark') }),
      ['sessionKey', 'head', 'pruneWatermark'],
    ),

    /**
     * (head, pruneWatermark, sessionKey): writes the values planHeadWrite computed from the row
     * read in the same write transaction, so "heads never fall" is the domain's rule alone.
     */
    updateHead: compile<UpdateHeadArgs>(
      client,
      orm
        .update(heads)
        .set({ head: sql`${p('head')}`, pruneWatermark: sql`${p('pruneWatermark')}` })
        .where(eq(heads.sessionKey, p('sessionKey'))),
      ['head', 'pruneWatermark', 'sessionKey'],
    ),

    /** Appends one journal entry (CursorJournalValues); its position is the next AUTOINCREMENT value. */
    insertJournal: compile<CursorJournalValues>(
      client,
      orm.insert(cursorJournal).values({
        watcher: p('watcher'),
        target: p('target'),
        type: p('type'),
        reason: p('reason'),
        via: p('via'),
        acked: p('acked'),
        notified: p('notified'),
        material: p('material'),
        recordedAt: p('recordedAt'),
      }),
      ['watcher', 'target', 'type', 'reason', 'via', 'acked', 'notified', 'material', 'recordedAt'],
    ),

    /** Writes a cursor row whole (insert or overwrite). */
    upsertCursor: compile<CursorArgs>(
      client,
      orm
        .insert(cursors)
        .values({
          watcher: p('watcher'),
          target: p('target'),
          acked: p('acked'),
          notified: p('notified'),
          material: p('material'),
          touchedAt: p('touchedAt'),
        })
        .onConflictDoUpdate({
          target: [cursors.watcher, cursors.target],
          set: {
            acked: sql`excluded.acked`,
            notified: sql`excluded.notified`,
            material: sql`excluded.material`,
            touchedAt: sql`excluded.touched_at`,
          },
        }),
      ['watcher', 'target', 'acked', 'notified', 'material', 'touchedAt'],
    ),

    /** Moves an existing cursor's watermarks (cheaper than the upsert when the row was just read). */
    updateCursor: compile<UpdateCursorArgs>(
      client,
      orm
        .update(cursors)
        // drizzle's update types take no bare placeholders; an sql fragment holding one is the same SQL.
        .set({
          acked: sql`${p('acked')}`,
          notified: sql`${p('notified')}`,
          material: sql`${p('material')}`,
          touchedAt: sql`${p('touchedAt')}`,
        })
        .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target')))),
      ['acked', 'notified', 'material', 'touchedAt', 'watcher', 'target'],
    ),

    /** (since, sessionKey, limit) → [head, pruneWatermark, ...EventValues] rows; see changesAfter. */
    changesSince: compile<[since: number, sessionKey: string, limit: number]>(client, changesAfter(orm, eventColumns), CHANGES_PARAMS, { raw: true }),

    /**
     * `changesSince` with only the columns `status` returns: [head, pruneWatermark,
     * ...SessionEventValues] per row (three columns fewer to read and hand to JavaScript).
     */
    sessionChangesSince: compile<[since: number, sessionKey: string, limit: number]>(
      client,
      changesAfter(orm, sessionEventColumns),
      CHANGES_PARAMS,
      { raw: true },
    ),

    /** (sessionKey) → [head, pruneWatermark]. */
    headOf: compile<[sessionKey: string]>(
      client,
      orm.select({ head: heads.head, pruneWatermark: heads.pruneWatermark }).from(heads).where(eq(heads.sessionKey, p('sessionKey'))),
      ['sessionKey'],
      { raw: true },
    ),

    /** (watcher, target) → the pair's cursor, as CursorValues. */
    cursorOf: compile<[watcher: string, target: string]>(
      client,
      orm
        .select(cursorColumns)
        .from(cursors)
        .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target')))),
      ['watcher', 'target'],
      { raw: true },
    ),

    // --- retention (one bounded batch: see prune.ts) ---------------------------------------

    /** (cutoff, limit) → the oldest appends before `cutoff`, as [sequence, sessionKey], oldest first. */
    agedEvents: compile<[cutoff: number, limit: number]>(
      client,
      orm
        .select({ sequence: events.sequence, sessionKey: events.sessionKey })
        .from(events)
        .where(lt(events.appendedAt, p('cutoff')))
        .orderBy(asc(events.appendedAt), asc(events.sequence))
        .limit(p('limit')),
      ['cutoff', 'limit'],
      { raw: true },
    ),

    /** (limit) → the lowest sequences (the earliest appends), as [sequence, sessionKey], lowest first. */
    lowestEvents: compile<[limit: number]>(
      client,
      orm.select({ sequence: events.sequence, sessionKey: events.sessionKey }).from(events).orderBy(asc(events.sequence)).limit(p('limit')),
      ['limit'],
      { raw: true },
    ),

    /** (sequence) → deletes that event. */
    deleteEvent: compile<[sequence: number]>(client, orm.delete(events).where(eq(events.sequence, p('sequence'))), ['sequence']),

    /** () → [number of retained events]. */
    countEvents: compile<[]>(client, orm.select({ n: count() }).from(events), [], { raw: true }),

    /** (cutoff, limit) → deletes up to `limit` cursors untouched since `cutoff`; returns each as CursorValues (planRemoval journals them). */
    expireIdleCursors: compile<[cutoff: number, limit: number]>(
      client,
      orm
        .delete(cursors)
        .where(
          inArray(
            sql`rowid`,
            orm
              .select({ rowid: sql`rowid` })
              .from(cursors)
              .where(lt(cursors.touchedAt, p('cutoff')))
              .limit(p('limit')),
          ),
        )
        .returning(cursorColumns),
      ['cutoff', 'limit'],
      { raw: true },
    ),

    /** (cutoff, 1) → one row when an event appended before `cutoff` is left, none otherwise. */
    agedLeft: compile<[cutoff: number, limit: 1]>(
      client,
      orm.select({ left: sql`1` }).from(events).where(lt(events.appendedAt, p('cutoff'))).limit(p('limit')),
      ['cutoff', 'limit'],
      { raw: true },
    ),

    /** (cutoff, 1) → one row when a cursor untouched since `cutoff` is left, none otherwise. */
    idleLeft: compile<[cutoff: number, limit: 1]>(
      client,
      orm.select({ left: sql`1` }).from(cursors).where(lt(cursors.touchedAt, p('cutoff'))).limit(p('limit')),
      ['cutoff', 'limit'],
      { raw: true },
    ),

    // --- journal retention (planJournalPrune's rule, bounded per batch) ------------------------

    /** (cutoff, limit) → deletes up to `limit` removable entries recorded before `cutoff`, lowest positions first. */
    deleteAgedJournal: compile<[cutoff: number, limit: number]>(
      client,
      orm.delete(cursorJournal).where(
        inArray(
          cursorJournal.position,
          orm
            .select({ position: cursorJournal.position })
            .from(cursorJournal)
            .where(and(lt(cursorJournal.recordedAt, p('cutoff')), removableEntry))
            .orderBy(asc(cursorJournal.position))
            .limit(p('limit')),
        ),
      ),
      ['cutoff', 'limit'],
    ),

    /** (limit) → deletes up to `limit` removable entries, lowest positions first (the row cap). */
    deleteLowestJournal: compile<[limit: number]>(
      client,
      orm.delete(cursorJournal).where(
        inArray(
          cursorJournal.position,
          orm.select({ position: cursorJournal.position }).from(cursorJournal).where(removableEntry).orderBy(asc(cursorJournal.position)).limit(p('limit')),
        ),
      ),
      ['limit'],
    ),

    /** () → [number of journal entries]. */
    countJournal: compile<[]>(client, orm.select({ n: count() }).from(cursorJournal), [], { raw: true }),

    /** (cutoff, 1) → one row when a removable entry recorded before `cutoff` is left. */
    agedJournalLeft: compile<[cutoff: number, limit: 1]>(
      client,
      orm
        .select({ left: sql`1` })
        .from(cursorJournal)
        .where(and(lt(cursorJournal.recordedAt, p('cutoff')), removableEntry))
        .limit(p('limit')),
      ['cutoff', 'limit'],
      { raw: true },
    ),

    /** (1) → one row when any removable entry is left. */
    removableJournalLeft: compile<[limit: 1]>(
      client,
      orm.select({ left: sql`1` }).from(cursorJournal).where(removableEntry).limit(p('limit')),
      ['limit'],
      { raw: true },
    ),
  };
}
