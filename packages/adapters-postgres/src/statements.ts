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

const p = (name: string) => sql.placeholder(name);

export interface Statements {
  // append
  readonly eventByDedupeKey: Statement;
  readonly anyCursorOnTarget: Statement;
  readonly lockHeads: Statement;
  readonly lockCursorsOnTargets: Statement;
  readonly appendEvent: Statement;
  readonly cursorsOnTarget: Statement;
  readonly moveCursors: Statement;
  readonly moveCursorPairs: Statement;
  readonly upsertCursor: Statement;
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
  readonly laggingCursors: Statement;
  readonly laggingCursorsOn: Statement;
  readonly lockCursorPairs: Statement;
  readonly deleteCursorsOfWatcher: Statement;
  readonly deleteCursorsOfSession: Statement;
  readonly deleteSessionEvents: Statement;
  readonly raisePruneWatermarks: Statement;
  // retention
  readonly deleteAgedEvents: Statement;
  readonly deleteLowestEvents: Statement;
  readonly countEvents: Statement;
  readonly expireIdleCursors: Statement;
  readonly agedLeft: Statement;
  readonly idleLeft: Statement;
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
  const { events, heads, cursors } = tables;
  const eventColumns = eventColumnsOf(tables);
  const sessionEventColumns = sessionEventColumnsOf(tables);
  const cursorColumns = cursorColumnsOf(tables);
  // The sequence, in the tables' schema, as a regclass literal (the name is checked: [a-z_][a-z0-9_]*).
  const schemaName = getTableConfig(events).schema;
  if (schemaName === undefined) throw new Error('prepareStatements: the tables must be in a schema of their own');
  const eventSequence = sql.raw(`'${schemaName}.event_sequence'::regclass`);
  return {
    // --- append (see appendEvents.ts) ---------------------------------------------------------

    /** (dedupeKey) → the event holding it, as EventValues. */
    eventByDedupeKey: compile('event_by_dedupe_key', orm.select(eventColumns).from(events).where(eq(events.dedupeKey, p('dedupeKey'))), [
      'dedupeKey',
    ]),

    /** (target) → one row when any cursor targets the session. */
    anyCursorOnTarget: compile('any_cursor_on_target', sql`SELECT 1 FROM ${cursors} WHERE ${cursors.target} = ${p('target')} LIMIT 1`, ['target']),

    /** (keys[]) locks the existing head rows of a batch's sessions in key order. */
    lockHeads: compile(
      'lock_heads',
      sql`SELECT 1 FROM ${heads} WHERE ${heads.sessionKey} = ANY(${p('sessionKeys')}::text[]) ORDER BY ${heads.sessionKey} FOR UPDATE`,
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

    /** (target, watchers[], acked[], notified[], material[], touchedAt) moves the listed cursors of one target. */
    moveCursors: compile(
      'move_cursors',
      sql`UPDATE ${cursors} SET acked = v.acked, notified = v.notified, material = v.material, touched_at = ${p('touchedAt')}
FROM unnest(${p('watchers')}::text[], ${p('acked')}::bigint[], ${p('notified')}::bigint[], ${p('material')}::bigint[]) AS v(watcher, acked, notified, material)
WHERE ${cursors.target} = ${p('target')} AND ${cursors.watcher} = v.watcher`,
      ['touchedAt', 'watchers', 'acked', 'notified', 'material', 'target'],
    ),

    /** (touchedAt, watchers[], targets[], acked[], notified[], material[]) moves the listed cursors of any targets. */
    moveCursorPairs: compile(
      'move_cursor_pairs',
      sql`UPDATE ${cursors} SET acked = v.acked, notified = v.notified, material = v.material, touched_at = ${p('touchedAt')}
FROM unnest(${p('watchers')}::text[], ${p('targets')}::text[], ${p('acked')}::bigint[], ${p('notified')}::bigint[], ${p('material')}::bigint[])
  AS v(watcher, target, acked, notified, material)
WHERE ${cursors.watcher} = v.watcher AND ${cursors.target} = v.target`,
      ['touchedAt', 'watchers', 'targets', 'acked', 'notified', 'material'],
    ),

    /** Writes a cursor row whole (insert or overwrite): the spawn edge's seed. */
    upsertCursor: compile(
      'upsert_cursor',
      orm
        .insert(cursors)
        .values({ watcher: p('watcher'), target: p('target'), acked: p('acked'), notified: p('notified'), material: p('material'), touchedAt: p('touchedAt') })
        .onConflictDoUpdate({
          target: [cursors.watcher, cursors.target],
          set: { acked: sql`excluded.acked`, notified: sql`excluded.notified`, material: sql`excluded.material`, touchedAt: sql`excluded.touched_at` },
        }),
      ['watcher', 'target', 'acked', 'notified', 'material', 'touchedAt'],
    ),

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
     * (sessionKey) → [head]: locks the session's head row, creating it at head 0 when the session
     * has none (reads treat a head of 0 as no head), so a watch or a delete is ordered with the
     * session's appends even before its first event.
     */
    lockHead: compile(
      'lock_head',
      sql`INSERT INTO ${heads} (session_key, head, prune_watermark) VALUES (${p('sessionKey')}, 0, 0)
ON CONFLICT (session_key) DO UPDATE SET head = ${heads}.head
RETURNING head`,
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

    /** Creates a cursor unless the pair has one; returns a row when it did. */
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

    /** () → every lagging cursor (material > acked), by watcher then target, as CursorValues. */
    laggingCursors: compile(
      'lagging_cursors',
      orm.select(cursorColumns).from(cursors).where(gt(cursors.material, cursors.acked)).orderBy(asc(cursors.watcher), asc(cursors.target)),
      [],
    ),
    /** (targets[]) → the lagging cursors on those targets, by watcher then target. */
    laggingCursorsOn: compile(
      'lagging_cursors_on',
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

    /** (watcher) → deletes its cursors, returning [watcher, target]. */
    deleteCursorsOfWatcher: compile(
      'delete_cursors_of_watcher',
      orm.delete(cursors).where(eq(cursors.watcher, p('watcher'))).returning({ watcher: cursors.watcher, target: cursors.target }),
      ['watcher'],
    ),
    /** (sessionKey) → deletes every cursor it is watcher or target of, returning [watcher, target]. */
    deleteCursorsOfSession: compile(
      'delete_cursors_of_session',
      sql`DELETE FROM ${cursors} WHERE ${cursors.watcher} = ${p('watcher')} OR ${cursors.target} = ${p('target')} RETURNING watcher, target`,
      ['watcher', 'target'],
    ),
    /** (sessionKey) → [deleted count, highest deleted sequence or null]. */
    deleteSessionEvents: compile(
      'delete_session_events',
      sql`WITH gone AS (DELETE FROM ${events} WHERE ${events.sessionKey} = ${p('sessionKey')} RETURNING sequence)
SELECT count(*)::bigint, max(sequence) FROM gone`,
      ['sessionKey'],
    ),
    /** (sessionKeys[], sequences[]): each prune watermark = max(itself, sequence); never lowered. */
    raisePruneWatermarks: compile(
      'raise_prune_watermarks',
      sql`UPDATE ${heads} SET prune_watermark = GREATEST(${heads}.prune_watermark, v.sequence)
FROM unnest(${p('sessionKeys')}::text[], ${p('sequences')}::bigint[]) AS v(session_key, sequence)
WHERE ${heads}.session_key = v.session_key`,
      ['sessionKeys', 'sequences'],
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
    /** (cutoff, limit) → deletes up to `limit` cursors untouched since `cutoff`; returns [watcher, target]. */
    expireIdleCursors: compile(
      'expire_idle_cursors',
      sql`DELETE FROM ${cursors} WHERE (${cursors.watcher}, ${cursors.target}) IN (
  SELECT ${cursors.watcher}, ${cursors.target} FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING watcher, target`,
      ['cutoff', 'limit'],
    ),
    /** (cutoff) → one row when an event appended before `cutoff` is left. */
    agedLeft: compile('aged_left', sql`SELECT 1 FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')} LIMIT 1`, ['cutoff']),
    /** (cutoff) → one row when a cursor untouched since `cutoff` is left. */
    idleLeft: compile('idle_left', sql`SELECT 1 FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} LIMIT 1`, ['cutoff']),
  };
}
