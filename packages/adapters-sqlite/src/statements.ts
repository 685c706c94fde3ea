// The hot statements, compiled ONCE at open into the driver's prepared statements taking named
// values (see compile.ts): the ones whose text both dialects share come from adapters-sql-common;
// those below are SQLite's own (AUTOINCREMENT inserts, row-by-row writes inside the synchronous
// transaction, rowid-bounded batches, `IN` lists).
import {
  columnsOf,
  CURSOR_FIELDS,
  PENDING_FIELDS,
  removableEntry,
  sharedStatements,
  type EventParams,
  type JournalParams,
  type SharedStatementName,
  type SharedStatementParams,
} from '@session-state/adapters-sql-common';

import { compile, compilePositional, type Statement } from './db/compile.js';
import type { SqliteClient } from './driver/driver.js';
import { raisedByMarks } from './operations/logMaterial.js';
import type { QueryBuilder as Orm } from './db/queryBuilder.js';
import { cursorJournal, cursors, events, heads, tables } from './schema.js';
import { orm } from './db/drizzle.js';

const { and, asc, eq, gt, gte, inArray, lt, lte, or, sql } = orm;

const p = (name: string) => sql.placeholder(name);

/** The order insertEvent takes its values in (EventParams' fields; checked against the SQL at open). */
export const INSERT_EVENT_ORDER = ['sessionKey', 'kind', 'actorType', 'actorSessionKey', 'summary', 'payload', 'dedupeKey', 'occurredAt', 'appendedAt'] as const;

/** insertEvent's values, in INSERT_EVENT_ORDER. */
export type InsertEventValues = readonly [
  sessionKey: EventParams['sessionKey'],
  kind: EventParams['kind'],
  actorType: EventParams['actorType'],
  actorSessionKey: EventParams['actorSessionKey'],
  summary: EventParams['summary'],
  payload: EventParams['payload'],
  dedupeKey: EventParams['dedupeKey'],
  occurredAt: EventParams['occurredAt'],
  appendedAt: EventParams['appendedAt'],
];

/** The order updateCursor takes its values in (checked against the SQL at open). */
const UPDATE_CURSOR_ORDER = ['acked', 'notified', 'material', 'touchedAt', 'watcher', 'target'] as const;
type UpdateCursorValues = readonly [acked: number, notified: number, material: number, touchedAt: number, watcher: string, target: string];

/** A cursor row's named values. */
export interface CursorParams {
  readonly watcher: string;
  readonly target: string;
  readonly acked: number;
  readonly notified: number;
  readonly material: number;
  readonly touchedAt: number;
}
interface HeadParams {
  readonly sessionKey: string;
  readonly head: number;
  readonly pruneWatermark: number;
}
interface Cutoff {
  readonly cutoff: number;
}
/** A journal retention window: the positions above `after` up to `upTo`. */
interface JournalWindow {
  readonly after: number;
  readonly upTo: number;
}
interface Limit {
  readonly limit: number;
}

/** The compiled statements; reads return positional rows. */
export type Statements = { readonly [K in SharedStatementName]: Statement<SharedStatementParams[K]> } & ReturnType<typeof ownStatements>;

/** SQLite's own statements. */
function ownStatements(client: SqliteClient, orm: Orm) {
  const removable = removableEntry(tables);
  return {
    /** (target) → every cursor on it, as CursorValues. Bound by position: an append runs it once per record. */
    cursorsOnTarget: compilePositional<readonly [target: string]>(
      client,
      orm.select(columnsOf(cursors, CURSOR_FIELDS)).from(cursors).where(eq(cursors.target, p('target'))),
      'cursorsOnTarget',
      ['target'],
    ),

    /**
     * Inserts an event; the sequence is the run result's `lastInsertRowid` (AUTOINCREMENT). Bound
     * by position (INSERT_EVENT_ORDER), the one hot statement that is: see compilePositional.
     */
    insertEvent: compilePositional<InsertEventValues>(
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
      'insertEvent',
      INSERT_EVENT_ORDER,
    ),

    /**
     * {keys: a JSON array of session keys} → [sessionKey, head, pruneWatermark, rowid] of each that
     * has a head row, in the order of the array (a repeated key once per occurrence; the row's
     * rowid lets readHeads drop the repeats without hashing every key). One statement for
     * any number of keys (json_each), so a `list` prepares nothing and needs no chunking under
     * SQLite's bound-parameter limit. CROSS JOIN keeps json_each as the outer loop (SQLite never
     * reorders it), so rows come in array order with one primary-key lookup per key and no sort.
     */
    headsOfKeys: compile<{ keys: string }>(
      client,
      sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark}, ${heads}.rowid FROM json_each(${p('keys')}) AS wanted CROSS JOIN ${heads} ON ${heads.sessionKey} = wanted.value`,
      'headsOfKeys',
    ),

    /**
     * {watcher, target, limit} → the next `limit` pending cursors after the pair (watcher, target),
     * by watcher then target, as PENDING_FIELDS rows: one page of the restart scan, read from the
     * covering partial index cursors_lagging in its order.
     */
    pendingCursorsAfter: compile<{ watcher: string; target: string; limit: number }>(
      client,
      orm
        .select(columnsOf(cursors, PENDING_FIELDS))
        .from(cursors)
        .where(and(gt(cursors.material, cursors.acked), sql`(${cursors.watcher}, ${cursors.target}) > (${p('watcher')}, ${p('target')})`))
        .orderBy(asc(cursors.watcher), asc(cursors.target))
        .limit(p('limit')),
      'pendingCursorsAfter',
    ),

    /** {sessionKey} → [head, pruneWatermark]. */
    headOf: compile<{ sessionKey: string }>(
      client,
      orm.select({ head: heads.head, pruneWatermark: heads.pruneWatermark }).from(heads).where(eq(heads.sessionKey, p('sessionKey'))),
      'headOf',
    ),

    /** A session's first head row, as planHeadWrite gives it. */
    insertHead: compile<HeadParams>(client, orm.insert(heads).values({ sessionKey: p('sessionKey'), head: p('head'), pruneWatermark: p('pruneWatermark') }), 'insertHead'),

    /** Writes the values planHeadWrite computed from the row read in the same write transaction. */
    updateHead: compile<HeadParams>(
      client,
      // drizzle's update types take no bare placeholders; an sql fragment holding one is the same SQL.
      orm
        .update(heads)
        .set({ head: sql`${p('head')}`, pruneWatermark: sql`${p('pruneWatermark')}` })
        .where(eq(heads.sessionKey, p('sessionKey'))),
      'updateHead',
    ),

    /** Appends one journal entry; its position is the next AUTOINCREMENT value. */
    insertJournal: compile<JournalParams>(
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
      'insertJournal',
    ),

    /** Writes a cursor row whole (insert or overwrite). */
    upsertCursor: compile<CursorParams>(
      client,
      orm
        .insert(cursors)
        .values({ watcher: p('watcher'), target: p('target'), acked: p('acked'), notified: p('notified'), material: p('material'), touchedAt: p('touchedAt') })
        .onConflictDoUpdate({
          target: [cursors.watcher, cursors.target],
          set: { acked: sql`excluded.acked`, notified: sql`excluded.notified`, material: sql`excluded.material`, touchedAt: sql`excluded.touched_at` },
        }),
      'upsertCursor',
    ),

    /**
     * Moves an existing cursor's watermarks (cheaper than the upsert when the row was just read).
     * Bound by position (UPDATE_CURSOR_ORDER; run it through moveCursor): an append runs it once
     * per watcher that moves, so fan-out multiplies what named binding costs (see compilePositional).
     */
    updateCursor: compilePositional<UpdateCursorValues>(
      client,
      orm
        .update(cursors)
        .set({ acked: sql`${p('acked')}`, notified: sql`${p('notified')}`, material: sql`${p('material')}`, touchedAt: sql`${p('touchedAt')}` })
        .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target')))),
      'updateCursor',
      UPDATE_CURSOR_ORDER,
    ),

    // --- retention (one bounded batch: see prune.ts) ---------------------------------------

    /** {cutoff, limit} → the oldest appends before `cutoff`, as [sequence, sessionKey], oldest first. */
    agedEvents: compile<Cutoff & Limit>(
      client,
      orm
        .select({ sequence: events.sequence, sessionKey: events.sessionKey })
        .from(events)
        .where(lt(events.appendedAt, p('cutoff')))
        .orderBy(asc(events.appendedAt), asc(events.sequence))
        .limit(p('limit')),
      'agedEvents',
    ),

    /** {upTo, limit} → the lowest sequences (the earliest appends) up to `upTo`, as [sequence, sessionKey], lowest first. */
    lowestEvents: compile<Limit & { upTo: number }>(
      client,
      orm
        .select({ sequence: events.sequence, sessionKey: events.sessionKey })
        .from(events)
        .where(lte(events.sequence, p('upTo')))
        .orderBy(asc(events.sequence))
        .limit(p('limit')),
      'lowestEvents',
    ),

    /**
     * {upTo, offset} → the sequence `offset` places above the lowest, among those up to `upTo`
     * (a batch in the prune worker ends there: see pruneWorker.ts), or no row when fewer remain.
     */
    capRangeEnd: compile<{ upTo: number; offset: number }>(
      client,
      sql`SELECT ${events.sequence} FROM ${events} WHERE ${events.sequence} <= ${p('upTo')} ORDER BY ${events.sequence} LIMIT 1 OFFSET ${p('offset')}`,
      'capRangeEnd',
    ),

    /** {to} → [sessionKey, highest sequence] of every session with events up to `to`: what a worker batch deletes from each. */
    victimSessions: compile<{ to: number }>(
      client,
      orm
        .select({ sessionKey: events.sessionKey, highest: sql`max(${events.sequence})` })
        .from(events)
        .where(lte(events.sequence, p('to')))
        .groupBy(events.sessionKey),
      'victimSessions',
    ),

    /** {keys: a JSON array of session keys} → the cursors on those targets, as CursorValues (json_each, as headsOfKeys). */
    cursorsOnTargets: compile<{ keys: string }>(
      client,
      sql`SELECT ${sql.join(
        CURSOR_FIELDS.map((field) => cursors[field]),
        sql`, `,
      )} FROM json_each(${p('keys')}) AS wanted CROSS JOIN ${cursors} ON ${cursors.target} = wanted.value`,
      'cursorsOnTargets',
    ),

    /** {sequence} → deletes that event. */
    deleteEvent: compile<{ sequence: number }>(client, orm.delete(events).where(eq(events.sequence, p('sequence'))), 'deleteEvent'),

    /** {from, to} → deletes the events with sequences in [from, to]: one statement for a run of the lowest sequences. */
    deleteEventRange: compile<{ from: number; to: number }>(
      client,
      orm.delete(events).where(and(gte(events.sequence, p('from')), lte(events.sequence, p('to')))),
      'deleteEventRange',
    ),

    /**
     * {cutoff, limit} → deletes up to `limit` cursors untouched since `cutoff`; returns each as
     * CursorValues (planRemoval journals them). A pending cursor whose material the target's
     * notify marks raised (logMaterial.ts) counts as touched when they raised it.
     */
    expireIdleCursors: compile<Cutoff & Limit>(
      client,
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
      'expireIdleCursors',
    ),

    // --- journal retention (planJournalPrune's rule, bounded per batch) ------------------------

    // One batch examines a window of positions (after, upTo]: the first batchSize entries after
    // where the run resumed (the shared `journalWindow`), so no batch walks the whole journal.

    /**
     * {cutoff, after, upTo} → deletes the window's removable entries recorded before `cutoff`. The
     * unary + keeps the plan on the position range whatever statistics the planner has: the
     * recorded_at index would walk every aged entry of the journal, kept ones too.
     */
    deleteAgedJournal: compile<Cutoff & JournalWindow>(
      client,
      orm
        .delete(cursorJournal)
        .where(and(gt(cursorJournal.position, p('after')), lte(cursorJournal.position, p('upTo')), sql`+${cursorJournal.recordedAt} < ${p('cutoff')}`, removable)),
      'deleteAgedJournal',
    ),

    /** {after, upTo, limit} → deletes the window's lowest `limit` removable entries (the row cap); returns [position] of each. */
    deleteLowestJournal: compile<JournalWindow & Limit>(
      client,
      orm
        .delete(cursorJournal)
        .where(
          inArray(
            cursorJournal.position,
            orm
              .select({ position: cursorJournal.position })
              .from(cursorJournal)
              .where(and(gt(cursorJournal.position, p('after')), lte(cursorJournal.position, p('upTo')), removable))
              .orderBy(asc(cursorJournal.position))
              .limit(p('limit')),
          ),
        )
        .returning({ position: cursorJournal.position }),
      'deleteLowestJournal',
    ),
  };
}

/** Writes a moved cursor row (one just read under the write lock) with updateCursor. */
export function moveCursor(st: Statements, row: CursorParams): void {
  st.updateCursor.run(row.acked, row.notified, row.material, row.touchedAt, row.watcher, row.target);
}

/** Compiles every statement once, at open. */
export function prepareStatements(client: SqliteClient, orm: Orm): Statements {
  const shared = sharedStatements(tables);
  const compiled = {} as Record<SharedStatementName, Statement<object>>;
  for (const name of Object.keys(shared) as SharedStatementName[]) compiled[name] = compile(client, shared[name], name);
  return { ...(compiled as unknown as { [K in SharedStatementName]: Statement<SharedStatementParams[K]> }), ...ownStatements(client, orm) };
}
