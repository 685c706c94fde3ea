// The store's statements, written with drizzle's query builder (or its `sql` template where the
// builder has no words, always naming the schema's tables and columns) and rendered ONCE at open
// into named statements (see `compile`). Reads return positional rows the adapter decodes.
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { getTableConfig } from 'drizzle-orm/pg-core';

import { compile } from './compile';
import type { StoreTables } from './schema';
import type { Statement } from './transaction';

type Orm = NodePgDatabase<StoreTables>;

// --- column lists (their order is EventValues / SessionEventValues / CursorValues) -----------

export function eventColumnsOf({ events }: StoreTables) {
  return {
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
}

/** The columns `status` returns. */
export function sessionEventColumnsOf({ events }: StoreTables) {
  return {
    sequence: events.sequence,
    kind: events.kind,
    actorType: events.actorType,
    actorSessionKey: events.actorSessionKey,
    summary: events.summary,
    payload: events.payload,
    occurredAt: events.occurredAt,
  };
}

export function cursorColumnsOf({ cursors }: StoreTables) {
  return {
    watcher: cursors.watcher,
    target: cursors.target,
    acked: cursors.acked,
    notified: cursors.notified,
    material: cursors.material,
    touchedAt: cursors.touchedAt,
  };
}

/** The columns of a journal select, in StoredCursorJournalValues order (the domain's cursorJournal.ts). */
export function journalColumnsOf({ cursorJournal }: StoreTables) {
  return {
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
}

const p = (name: string) => sql.placeholder(name);

/** The placeholders of a journal insert: one array per CursorJournalValues column. */
const JOURNAL_PARAMS = ['jWatchers', 'jTargets', 'jTypes', 'jReasons', 'jVias', 'jAcked', 'jNotified', 'jMaterial', 'jRecordedAt'] as const;

/** The RETURNING list of a cursor delete: CursorValues (the column names of the cursors table). */
const CURSOR_RETURNING = sql.raw('watcher, target, acked, notified, material, touched_at');

export interface Statements {
  // append
  readonly eventByDedupeKey: Statement;
  readonly anyCursorOnTarget: Statement;
  readonly lockHeads: Statement;
  readonly lockCursorsOnTargets: Statement;
  readonly appendEvent: Statement;
  readonly cursorsOnTarget: Statement;
  readonly writeCursorPlan: Statement;
  readonly insertJournal: Statement;
  readonly notify: Statement;
  readonly notifyTargets: Statement;
  // reads
  readonly changesSince: Statement;
  readonly sessionChangesSince: Statement;
  readonly headsOf: Statement;
  readonly allHeads: Statement;
  // cursor writes
  readonly lockHead: Statement;
  readonly cursorOf: Statement;
  readonly insertCursor: Statement;
  readonly drainCursors: Statement;
  readonly pendingCursors: Statement;
  readonly pendingCursorsOn: Statement;
  readonly lockCursorPairs: Statement;
  readonly deleteCursorsOfWatcher: Statement;
  readonly deleteCursorsOfSession: Statement;
  readonly deleteSessionEvents: Statement;
  readonly writeHeads: Statement;
  readonly cursorsKeepingMaterial: Statement;
  // retention
  readonly deleteAgedEvents: Statement;
  readonly deleteLowestEvents: Statement;
  readonly countEvents: Statement;
  readonly expireIdleCursors: Statement;
  readonly agedLeft: Statement;
  readonly idleLeft: Statement;
  readonly deleteAgedJournal: Statement;
  readonly deleteLowestJournal: Statement;
  readonly countJournal: Statement;
  readonly agedJournalLeft: Statement;
  readonly removableJournalLeft: Statement;
}

/**
 * The head, the prune watermark and the retained events after `since` with the given columns,
 * in ONE statement so they come from one snapshot: one row per event; one row with null event
 * columns when there are none; no row when the session has no head.
 */
function changesAfter(orm: Orm, { events, heads }: StoreTables, columns: ReturnType<typeof eventColumnsOf> | ReturnType<typeof sessionEventColumnsOf>) {
  return orm
    .select({ head: heads.head, pruneWatermark: heads.pruneWatermark, ...columns })
    .from(heads)
    .leftJoin(events, and(eq(events.sessionKey, heads.sessionKey), gt(events.sequence, p('since'))))
    .where(eq(heads.sessionKey, p('sessionKey')))
    .orderBy(asc(events.sequence))
    .limit(p('limit'));
}

/**
 * Every statement of the store on the tables of `tables`' schema. The names the query builder
 * cannot render (the sequence) are qualified here too, so no statement depends on search_path.
 */
export function prepareStatements(orm: Orm, tables: StoreTables): Statements {
  const { events, heads, cursors, cursorJournal } = tables;
  const eventColumns = eventColumnsOf(tables);
  const sessionEventColumns = sessionEventColumnsOf(tables);
  const cursorColumns = cursorColumnsOf(tables);
  // The sequence, in the tables' schema, as a regclass literal (the name is checked: [a-z_][a-z0-9_]*).
  const schemaName = getTableConfig(events).schema;
  if (schemaName === undefined) throw new Error('prepareStatements: the tables must be in a schema of their own');
  const eventSequence = sql.raw(`'${schemaName}.event_sequence'::regclass`);
  // A journal entry retention may delete: its pair has no cursor, or a later entry of the pair
  // exists (the latest entry of a live pair stays, so its cursor can always be replayed). Both
  // are index lookups (the cursors' primary key, cursor_journal_pair).
  const removableEntry = sql`(NOT EXISTS (SELECT 1 FROM ${cursors} WHERE ${cursors.watcher} = ${cursorJournal.watcher} AND ${cursors.target} = ${cursorJournal.target})
  OR EXISTS (SELECT 1 FROM ${cursorJournal} AS later WHERE later.watcher = ${cursorJournal.watcher} AND later.target = ${cursorJournal.target} AND later.position > ${cursorJournal.position}))`;
  const journalInsert = sql`INSERT INTO ${cursorJournal} (watcher, target, type, reason, via, acked, notified, material, recorded_at)
SELECT j.watcher, j.target, j.type, j.reason, j.via, j.acked, j.notified, j.material, j.recorded_at
FROM unnest(${p('jWatchers')}::text[], ${p('jTargets')}::text[], ${p('jTypes')}::text[], ${p('jReasons')}::text[], ${p('jVias')}::text[],
            ${p('jAcked')}::bigint[], ${p('jNotified')}::bigint[], ${p('jMaterial')}::bigint[], ${p('jRecordedAt')}::bigint[])
  WITH ORDINALITY AS j(watcher, target, type, reason, via, acked, notified, material, recorded_at, ord)
ORDER BY j.ord`;
  return {
    // --- append (see appendEvents.ts) ---------------------------------------------------------

    /** (dedupeKey) → the event holding it, as EventValues. */
    eventByDedupeKey: compile('event_by_dedupe_key', orm.select(eventColumns).from(events).where(eq(events.dedupeKey, p('dedupeKey'))), [
      'dedupeKey',
    ]),

    /** (target) → one row when any cursor targets the session. */
    anyCursorOnTarget: compile('any_cursor_on_target', sql`SELECT 1 FROM ${cursors} WHERE ${cursors.target} = ${p('target')} LIMIT 1`, ['target']),

    /** (keys[]) locks the existing head rows of sessions in key order; returns [sessionKey, head, pruneWatermark] each. */
    lockHeads: compile(
      'lock_heads',
      sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.sessionKey} = ANY(${p('sessionKeys')}::text[]) ORDER BY ${heads.sessionKey} FOR UPDATE`,
      ['sessionKeys'],
    ),

    /** (targets[]) locks every cursor on a batch's targets in (target, watcher) order, the order drains lock in too. */
    lockCursorsOnTargets: compile(
      'lock_cursors_on_targets',
      sql`SELECT 1 FROM ${cursors} WHERE ${cursors.target} = ANY(${p('targets')}::text[]) ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`,
      ['targets'],
    ),

    /**
     * Locks (or creates) the session's head row, draws the next sequence while holding the lock
     * and raises the head to it, then inserts the event at that sequence: one statement. The
     * DO UPDATE draws again after the lock is held, so a session's sequences are committed in
     * increasing order whatever other gateways do (the VALUES draw of that path is wasted).
     * The head is written here rather than by the domain's planHeadWrite: that would need the
     * locked row read back before the write, a round trip more per append, and the sequence must
     * be drawn under the lock anyway. A value drawn under the lock is above every value the
     * sequence handed out before, so this head only rises (`evolveHead`'s rule, by construction).
     */
    appendEvent: compile(
      'append_event',
      sql`WITH head AS (
  INSERT INTO ${heads} (session_key, head, prune_watermark) VALUES (${p('sessionKey')}, nextval(${eventSequence}), 0)
  ON CONFLICT (session_key) DO UPDATE SET head = nextval(${eventSequence})
  RETURNING head
)
INSERT INTO ${events} (sequence, session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
SELECT head.head, ${p('sessionKey2')}, ${p('kind')}, ${p('actorType')}, ${p('actorSessionKey')}, ${p('summary')}, ${p('payload')}::json, ${p('dedupeKey')}, ${p('occurredAt')}, ${p('appendedAt')}
FROM head
RETURNING sequence`,
      ['sessionKey', 'sessionKey2', 'kind', 'actorType', 'actorSessionKey', 'summary', 'payload', 'dedupeKey', 'occurredAt', 'appendedAt'],
    ),

    /** (target) → every cursor on it, locked, as CursorValues. */
    cursorsOnTarget: compile(
      'cursors_on_target',
      orm.select(cursorColumns).from(cursors).where(eq(cursors.target, p('target'))).orderBy(asc(cursors.watcher)).for('update'),
      ['target'],
    ),

    /**
     * Writes a plan in one statement: its cursor rows (upserted whole: the seed of a spawn edge
     * may create one, every other row was locked by the caller's read) and its journal entries,
     * in order (positions follow it).
     */
    writeCursorPlan: compile(
      'write_cursor_plan',
      sql`WITH written AS (
  INSERT INTO ${cursors} (watcher, target, acked, notified, material, touched_at)
  SELECT * FROM unnest(${p('watchers')}::text[], ${p('targets')}::text[], ${p('acked')}::bigint[], ${p('notified')}::bigint[], ${p('material')}::bigint[], ${p('touchedAt')}::bigint[])
  ON CONFLICT (watcher, target) DO UPDATE SET acked = excluded.acked, notified = excluded.notified, material = excluded.material, touched_at = excluded.touched_at
), journal AS (
${journalInsert}
)
SELECT 1`,
      ['watchers', 'targets', 'acked', 'notified', 'material', 'touchedAt', ...JOURNAL_PARAMS],
    ),

    /** Appends journal entries (the arrays of CursorJournalValues), in order. */
    insertJournal: compile('insert_journal', journalInsert, JOURNAL_PARAMS),

    /** (channel, target): delivered to every listener when (and only if) the transaction commits. */
    notify: compile('notify', sql`SELECT pg_notify(${p('channel')}, ${p('target')})`, ['channel', 'target']),
    /** (channel, targets[]): one notification per distinct target, at commit, as `notify` does. */
    notifyTargets: compile(
      'notify_targets',
      sql`SELECT pg_notify(${p('channel')}, t) FROM (SELECT DISTINCT unnest(${p('targets')}::text[]) AS t) AS distinct_targets`,
      ['channel', 'targets'],
    ),

    // --- reads --------------------------------------------------------------------------------

    /** (since, sessionKey, limit) → [head, pruneWatermark, ...EventValues] rows. */
    changesSince: compile('changes_since', changesAfter(orm, tables, eventColumns), ['since', 'sessionKey', 'limit']),
    /** As changesSince with only the columns `status` returns. */
    sessionChangesSince: compile('session_changes_since', changesAfter(orm, tables, sessionEventColumns), ['since', 'sessionKey', 'limit']),

    /** (keys[]) → [sessionKey, head, pruneWatermark] of those with a head above 0. */
    headsOf: compile(
      'heads_of',
      sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.sessionKey} = ANY(${p('sessionKeys')}::text[]) AND ${heads.head} > 0`,
      ['sessionKeys'],
    ),
    /** () → every head row above 0, by session key. */
    allHeads: compile(
      'all_heads',
      orm
        .select({ sessionKey: heads.sessionKey, head: heads.head, pruneWatermark: heads.pruneWatermark })
        .from(heads)
        .where(gt(heads.head, sql`0`))
        .orderBy(asc(heads.sessionKey)),
      [],
    ),

    // --- cursor writes ------------------------------------------------------------------------

    /**
     * (sessionKey) → [head, pruneWatermark]: locks the session's head row, creating it at head 0 when the session
     * has none (reads treat a head of 0 as no head), so a watch or a delete is ordered with the
     * session's appends even before its first event.
     */
    lockHead: compile(
      'lock_head',
      sql`INSERT INTO ${heads} (session_key, head, prune_watermark) VALUES (${p('sessionKey')}, 0, 0)
ON CONFLICT (session_key) DO UPDATE SET head = ${heads}.head
RETURNING head, prune_watermark`,
      ['sessionKey'],
    ),

    /** (watcher, target) → the pair's cursor, as CursorValues. */
    cursorOf: compile(
      'cursor_of',
      orm
        .select(cursorColumns)
        .from(cursors)
        .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target')))),
      ['watcher', 'target'],
    ),

    /** Creates a cursor unless the pair has one (a concurrent watch made it first); returns a row when it did. */
    insertCursor: compile(
      'insert_cursor',
      orm
        .insert(cursors)
        .values({ watcher: p('watcher'), target: p('target'), acked: p('acked'), notified: p('notified'), material: p('material'), touchedAt: p('touchedAt') })
        .onConflictDoNothing()
        .returning({ one: sql`1` }),
      ['watcher', 'target', 'acked', 'notified', 'material', 'touchedAt'],
    ),

    /** (watcher, targets[]) → those cursors, locked in target order, as CursorValues. */
    drainCursors: compile(
      'drain_cursors',
      sql`SELECT ${sql.join(Object.values(cursorColumns), sql`, `)} FROM ${cursors}
WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ANY(${p('targets')}::text[])
ORDER BY ${cursors.target} FOR UPDATE`,
      ['watcher', 'targets'],
    ),

    /** () → every pending cursor (material > acked), by watcher then target, as CursorValues. */
    pendingCursors: compile(
      'pending_cursors',
      orm.select(cursorColumns).from(cursors).where(gt(cursors.material, cursors.acked)).orderBy(asc(cursors.watcher), asc(cursors.target)),
      [],
    ),
    /** (targets[]) → the pending cursors on those targets, by watcher then target. */
    pendingCursorsOn: compile(
      'pending_cursors_on',
      sql`SELECT ${sql.join(Object.values(cursorColumns), sql`, `)} FROM ${cursors}
WHERE ${cursors.target} = ANY(${p('targets')}::text[]) AND ${cursors.material} > ${cursors.acked}
ORDER BY ${cursors.watcher}, ${cursors.target}`,
      ['targets'],
    ),
    /** (watchers[], targets[]) → those pairs' cursors, locked in (target, watcher) order, as CursorValues. */
    lockCursorPairs: compile(
      'lock_cursor_pairs',
      sql`SELECT ${sql.join(Object.values(cursorColumns), sql`, `)} FROM ${cursors}
WHERE (${cursors.watcher}, ${cursors.target}) IN (SELECT * FROM unnest(${p('watchers')}::text[], ${p('targets')}::text[]))
ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`,
      ['watchers', 'targets'],
    ),

    /** (watcher) → deletes its cursors, returning each as CursorValues. */
    deleteCursorsOfWatcher: compile(
      'delete_cursors_of_watcher',
      orm.delete(cursors).where(eq(cursors.watcher, p('watcher'))).returning(cursorColumns),
      ['watcher'],
    ),
    /** (sessionKey) → deletes every cursor it is watcher or target of, returning each as CursorValues. */
    deleteCursorsOfSession: compile(
      'delete_cursors_of_session',
      sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} OR ${cursors.target} = ${p('target')} RETURNING ${CURSOR_RETURNING}`,
      ['watcher', 'target'],
    ),
    /** (sessionKey) → [deleted count, highest deleted sequence or null]. */
    deleteSessionEvents: compile(
      'delete_session_events',
      sql`WITH gone AS (DELETE FROM ${events} WHERE ${events.sessionKey} = ${p('sessionKey')} RETURNING sequence)
SELECT count(*)::bigint, max(sequence) FROM gone`,
      ['sessionKey'],
    ),
    /**
     * (sessionKeys[], heads[], pruneWatermarks[]): writes the head rows planHeadWrite computed
     * from the rows the caller locked (lockHead, lockHeads), so "heads never fall" and "the prune
     * watermark only rises" are the domain's rules alone.
     */
    writeHeads: compile(
      'write_heads',
      sql`UPDATE ${heads} SET head = v.head, prune_watermark = v.prune_watermark
FROM unnest(${p('sessionKeys')}::text[], ${p('heads')}::bigint[], ${p('pruneWatermarks')}::bigint[]) AS v(session_key, head, prune_watermark)
WHERE ${heads.sessionKey} = v.session_key`,
      ['sessionKeys', 'heads', 'pruneWatermarks'],
    ),

    /**
     * (targets[]) → the cursors on those targets whose material a target event raised (material >
     * notified), locked in (target, watcher) order, as CursorValues: the candidates of
     * planPruneMaterial.
     */
    cursorsKeepingMaterial: compile(
      'cursors_keeping_material',
      sql`SELECT ${sql.join(Object.values(cursorColumns), sql`, `)} FROM ${cursors}
WHERE ${cursors.target} = ANY(${p('targets')}::text[]) AND ${cursors.material} > ${cursors.notified}
ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`,
      ['targets'],
    ),

    // --- retention (one bounded batch: see prune.ts) ---------------------------------------------

    /** (cutoff, limit) → deletes the oldest appends before `cutoff`; returns [sequence, sessionKey]. */
    deleteAgedEvents: compile(
      'delete_aged_events',
      sql`DELETE FROM ${events} WHERE ${events.sequence} IN (
  SELECT ${events.sequence} FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')}
  ORDER BY ${events.appendedAt}, ${events.sequence} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING sequence, session_key`,
      ['cutoff', 'limit'],
    ),
    /** (limit) → deletes the lowest sequences (the earliest appends); returns [sequence, sessionKey]. */
    deleteLowestEvents: compile(
      'delete_lowest_events',
      sql`DELETE FROM ${events} WHERE ${events.sequence} IN (
  SELECT ${events.sequence} FROM ${events} ORDER BY ${events.sequence} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING sequence, session_key`,
      ['limit'],
    ),
    /** () → [number of retained events]. */
    countEvents: compile('count_events', orm.select({ n: count() }).from(events), []),
    /** (cutoff, limit) → deletes up to `limit` cursors untouched since `cutoff`; returns each as CursorValues. */
    expireIdleCursors: compile(
      'expire_idle_cursors',
      sql`DELETE FROM ${cursors} WHERE (${cursors.watcher}, ${cursors.target}) IN (
  SELECT ${cursors.watcher}, ${cursors.target} FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING ${CURSOR_RETURNING}`,
      ['cutoff', 'limit'],
    ),
    /** (cutoff) → one row when an event appended before `cutoff` is left. */
    agedLeft: compile('aged_left', sql`SELECT 1 FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')} LIMIT 1`, ['cutoff']),
    /** (cutoff) → one row when a cursor untouched since `cutoff` is left. */
    idleLeft: compile('idle_left', sql`SELECT 1 FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} LIMIT 1`, ['cutoff']),

    // --- journal retention (planJournalPrune's rule, bounded per batch) ----------------------------

    /** (cutoff, limit) → deletes up to `limit` removable entries recorded before `cutoff`, lowest positions first; returns [position]. */
    deleteAgedJournal: compile(
      'delete_aged_journal',
      sql`DELETE FROM ${cursorJournal} WHERE ${cursorJournal.position} IN (
  SELECT ${cursorJournal.position} FROM ${cursorJournal} WHERE ${cursorJournal.recordedAt} < ${p('cutoff')} AND ${removableEntry}
  ORDER BY ${cursorJournal.position} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING position`,
      ['cutoff', 'limit'],
    ),
    /** (limit) → deletes up to `limit` removable entries, lowest positions first (the row cap); returns [position]. */
    deleteLowestJournal: compile(
      'delete_lowest_journal',
      sql`DELETE FROM ${cursorJournal} WHERE ${cursorJournal.position} IN (
  SELECT ${cursorJournal.position} FROM ${cursorJournal} WHERE ${removableEntry}
  ORDER BY ${cursorJournal.position} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING position`,
      ['limit'],
    ),
    /** () → [number of journal entries]. */
    countJournal: compile('count_journal', orm.select({ n: count() }).from(cursorJournal), []),
    /** (cutoff) → one row when a removable entry recorded before `cutoff` is left. */
    agedJournalLeft: compile(
      'aged_journal_left',
      sql`SELECT 1 FROM ${cursorJournal} WHERE ${cursorJournal.recordedAt} < ${p('cutoff')} AND ${removableEntry} LIMIT 1`,
      ['cutoff'],
    ),
    /** () → one row when any removable entry is left. */
    removableJournalLeft: compile('removable_journal_left', sql`SELECT 1 FROM ${cursorJournal} WHERE ${removableEntry} LIMIT 1`, []),
  };
}
