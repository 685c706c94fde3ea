// The store's statements, rendered once at open as named statements taking named values: the shared ones and PostgreSQL's own.
import { columnsOf, CURSOR_FIELDS, p, PENDING_FIELDS, q, renderStatement, sharedStatements, type Query, type EventParams, type JournalParams, type SharedStatementName, type SharedStatementParams } from '@session-state/adapters-sql-common';
import type { CursorRow } from '@session-state/domain';

import { orm, pgCore } from './drizzle.js';
import type { StoreTables } from './schema.js';

const { sql } = orm;
const { getTableConfig, PgDialect } = pgCore;

export const dialect = new PgDialect();

/** A statement built once at open: a name (prepared once per connection), its text and the placeholder each `$n` binds. */
export interface Statement<Params extends object = Record<string, never>> {
  readonly name: string;
  readonly text: string;
  readonly names: readonly string[];
  /** A type only: the named values. */
  readonly params?: Params;
}

type Compiled<T> = { readonly [K in keyof T]: T[K] extends Query<infer P> ? Statement<P> : never };

/** Renders each query once as the statement `ss_<its name in snake case>`. */
function compileAll<T extends Record<string, Query<object>>>(queries: T): Compiled<T> {
  const compiled: Record<string, Statement<object>> = {};
  for (const [key, query] of Object.entries(queries)) {
    const name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const { sql: text, names } = renderStatement(dialect, query, `compile ${name}`);
    compiled[key] = { name: `ss_${name}`, text, names };
  }
  return compiled as Compiled<T>;
}

/** The journal placeholders, each the array of one JournalParams field. */
export const JOURNAL_COLUMNS = { jWatchers: 'watcher', jTargets: 'target', jTypes: 'type', jReasons: 'reason', jVias: 'via', jAcked: 'acked', jNotified: 'notified', jMaterial: 'material', jRecordedAt: 'recordedAt', jTakenUntil: 'takenUntil', jAmbient: 'ambient' } as const satisfies Record<string, keyof JournalParams>;
/** The cursor placeholders of a plan write, each the array of one CursorWrite field. */
export const CURSOR_COLUMNS = { watchers: 'watcher', targets: 'target', acked: 'acked', notified: 'notified', material: 'material', touchedAt: 'touchedAt', takenUntil: 'takenUntil', ambient: 'ambient' } as const;
/** A cursor row as written: its class 1 (ambient) or 0. */
export type CursorWrite = Omit<CursorRow, 'ambient'> & { readonly ambient: number };

/** One array per placeholder of `Columns`, of the field of `Row` it names. */
export type Arrays<Row, Columns extends Record<string, keyof Row>> = { readonly [K in keyof Columns]: readonly Row[Columns[K]][] };
export type JournalArrays = Arrays<JournalParams, typeof JOURNAL_COLUMNS>;

type Cutoff = { readonly cutoff: number };
type Limit = { readonly limit: number };
type Targets = { readonly targets: readonly string[] };
type SessionKeys = { readonly sessionKeys: readonly string[] };
type SharedQueries = { readonly [K in SharedStatementName]: Query<SharedStatementParams[K]> };

/** Every statement; the shared ones take the named values adapters-sql-common gives them. */
export type Statements = Compiled<SharedQueries> & ReturnType<typeof ownStatements>;

/** PostgreSQL's own statements; the sequence is qualified here too, so no statement depends on search_path. */
function ownStatements(tables: StoreTables) {
  const { events, heads, cursors, cursorJournal } = tables;
  const shared = sharedStatements(tables);
  const cursorList = sql.join(Object.values(columnsOf(cursors, CURSOR_FIELDS)), sql`, `);
  const pendingColumns = sql.join(Object.values(columnsOf(cursors, PENDING_FIELDS)), sql`, `);
  // A regclass literal: the schema name is checked ([a-z_][a-z0-9_]*).
  const schemaName = getTableConfig(events).schema;
  if (schemaName === undefined) throw new Error('prepareStatements: the tables must be in a schema of their own');
  const eventSequence = sql.raw(`'${schemaName}.event_sequence'::regclass`);
  const journalInsert = sql`INSERT INTO ${cursorJournal} (watcher, target, type, reason, via, acked, notified, material, recorded_at, taken_until, ambient)
SELECT j.watcher, j.target, j.type, j.reason, j.via, j.acked, j.notified, j.material, j.recorded_at, j.taken_until, j.ambient
FROM unnest(${p('jWatchers')}::text[], ${p('jTargets')}::text[], ${p('jTypes')}::text[], ${p('jReasons')}::text[], ${p('jVias')}::text[],
            ${p('jAcked')}::bigint[], ${p('jNotified')}::bigint[], ${p('jMaterial')}::bigint[], ${p('jRecordedAt')}::bigint[], ${p('jTakenUntil')}::bigint[], ${p('jAmbient')}::smallint[])
  WITH ORDINALITY AS j(watcher, target, type, reason, via, acked, notified, material, recorded_at, taken_until, ambient, ord)
ORDER BY j.ord`;
  return compileAll({
    /** {target} → one row when any cursor targets the session. */
    anyCursorOnTarget: q<{ target: string }>(sql`SELECT 1 FROM ${cursors} WHERE ${cursors.target} = ${p('target')} LIMIT 1`),
    /** {sessionKeys} locks the existing head rows of sessions in key order; returns [sessionKey, head, pruneWatermark] each. */
    lockHeads: q<SessionKeys>(sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.sessionKey} = ANY(${p('sessionKeys')}::text[]) ORDER BY ${heads.sessionKey} FOR UPDATE`),
    /** {targets} locks every cursor on a batch's targets in (target, watcher) order, the order drains lock in too. */
    lockCursorsOnTargets: q<Targets>(sql`SELECT 1 FROM ${cursors} WHERE ${cursors.target} = ANY(${p('targets')}::text[]) ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`),
    /** Locks (or creates) the head row, draws the next sequence under the lock, raises the head to it and inserts the event, in one statement: a session's
     * sequences commit in increasing order whatever other gateways do, and the head only rises (so planHeadWrite's read-back is not needed). */
    appendEvent: q<EventParams>(sql`WITH head AS (
  INSERT INTO ${heads} (session_key, head, prune_watermark) VALUES (${p('sessionKey')}, nextval(${eventSequence}), 0)
  ON CONFLICT (session_key) DO UPDATE SET head = nextval(${eventSequence})
  RETURNING head
)
INSERT INTO ${events} (sequence, session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
SELECT head.head, ${p('sessionKey')}, ${p('kind')}, ${p('actorType')}, ${p('actorSessionKey')}, ${p('summary')}, ${p('payload')}::json, ${p('dedupeKey')}, ${p('occurredAt')}, ${p('appendedAt')}
FROM head
RETURNING sequence`),
    /** {target} → every cursor on it, locked, as CursorValues. */
    cursorsOnTarget: q<{ target: string }>(sql`SELECT ${cursorList} FROM ${cursors} WHERE ${cursors.target} = ${p('target')} ORDER BY ${cursors.watcher} FOR UPDATE`),
    /** Writes a plan in one statement: its cursor rows (upserted: a spawn seed may create one) and its journal entries, in order. */
    writeCursorPlan: q<Arrays<CursorWrite, typeof CURSOR_COLUMNS> & JournalArrays>(sql`WITH written AS (
  INSERT INTO ${cursors} (watcher, target, acked, notified, material, touched_at, taken_until, ambient)
  SELECT * FROM unnest(${p('watchers')}::text[], ${p('targets')}::text[], ${p('acked')}::bigint[], ${p('notified')}::bigint[], ${p('material')}::bigint[], ${p('touchedAt')}::bigint[], ${p('takenUntil')}::bigint[], ${p('ambient')}::smallint[])
  ON CONFLICT (watcher, target) DO UPDATE SET acked = excluded.acked, notified = excluded.notified, material = excluded.material, touched_at = excluded.touched_at, taken_until = excluded.taken_until, ambient = excluded.ambient
), journal AS (
${journalInsert}
)
SELECT 1`),
    /** Appends journal entries (JournalArrays), in order. */
    insertJournal: q<JournalArrays>(journalInsert),
    /** {channel, payloads}: one notification per payload, delivered when (and only if) the transaction commits. */
    notifyPayloads: q<{ channel: string; payloads: readonly string[] }>(sql`SELECT pg_notify(${p('channel')}, payload) FROM unnest(${p('payloads')}::text[]) AS payload`),
    /** {sessionKeys} → [sessionKey, head, pruneWatermark] of those with a head above 0. */
    headsOf: q<SessionKeys>(sql`SELECT ${heads.sessionKey}, ${heads.head}, ${heads.pruneWatermark} FROM ${heads} WHERE ${heads.sessionKey} = ANY(${p('sessionKeys')}::text[]) AND ${heads.head} > 0`),
    /** {sessionKey} → [head, pruneWatermark]: locks the head row, created at head 0 (read as no head) so a watch or delete orders with appends. */
    lockHead: q<{ sessionKey: string }>(sql`INSERT INTO ${heads} (session_key, head, prune_watermark) VALUES (${p('sessionKey')}, 0, 0)
ON CONFLICT (session_key) DO UPDATE SET head = ${heads}.head
RETURNING head, prune_watermark`),
    /** {watcher, targets} → those cursors, locked in target order, as CursorValues. */
    drainCursors: q<{ watcher: string } & Targets>(sql`SELECT ${cursorList} FROM ${cursors}
WHERE ${cursors.watcher} = ${p('watcher')} AND ${cursors.target} = ANY(${p('targets')}::text[])
ORDER BY ${cursors.target} FOR UPDATE`),
    /** {targets, watcher, target, limit} → the first `limit` pending cursors on those targets after that pair, in pair order, as PENDING_FIELDS rows. */
    pendingCursorsOn: q<Targets & { watcher: string; target: string; limit: number }>(sql`SELECT ${pendingColumns} FROM ${cursors}
WHERE ${cursors.target} = ANY(${p('targets')}::text[]) AND ${cursors.material} > ${cursors.acked} AND (${cursors.watcher}, ${cursors.target}) > (${p('watcher')}, ${p('target')})
ORDER BY ${cursors.watcher}, ${cursors.target} LIMIT ${p('limit')}`),
    /** {watchers, targets} → those pairs' cursors, locked in (target, watcher) order, as PENDING_FIELDS rows. */
    lockCursorPairs: q<{ watchers: readonly string[] } & Targets>(sql`SELECT ${pendingColumns} FROM ${cursors}
WHERE (${cursors.watcher}, ${cursors.target}) IN (SELECT * FROM unnest(${p('watchers')}::text[], ${p('targets')}::text[]))
ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`),
    /** {sessionKey} → [deleted count, highest deleted sequence or null]. */
    deleteSessionEvents: q<{ sessionKey: string }>(sql`WITH gone AS (DELETE FROM ${events} WHERE ${events.sessionKey} = ${p('sessionKey')} RETURNING sequence)
SELECT count(*)::bigint, max(sequence) FROM gone`),
    /** {sessionKeys, heads, pruneWatermarks}: writes the head rows planHeadWrite computed from the locked rows. */
    writeHeads: q<SessionKeys & { heads: readonly number[]; pruneWatermarks: readonly number[] }>(sql`UPDATE ${heads} SET head = v.head, prune_watermark = v.prune_watermark
FROM unnest(${p('sessionKeys')}::text[], ${p('heads')}::bigint[], ${p('pruneWatermarks')}::bigint[]) AS v(session_key, head, prune_watermark)
WHERE ${heads.sessionKey} = v.session_key`),
    /** {targets} → planPruneMaterial's candidates: cursors with material > notified, locked in (target, watcher) order. */
    cursorsKeepingMaterial: q<Targets>(sql`SELECT ${cursorList} FROM ${cursors}
WHERE ${cursors.target} = ANY(${p('targets')}::text[]) AND ${cursors.material} > ${cursors.notified}
ORDER BY ${cursors.target}, ${cursors.watcher} FOR UPDATE`),
    // Retention deletes take victims as `= ANY(ARRAY(subquery))`, never `IN (subquery)`, which the planner hashes over a whole-table scan.
    /** {cutoff, limit} → deletes the oldest appends before `cutoff`; one [sessionKey, highest deleted, count] row per session. */
    deleteAgedEvents: q<Cutoff & Limit>(sql`WITH victims AS (
  DELETE FROM ${events} WHERE ${events.sequence} = ANY(ARRAY(
    SELECT ${events.sequence} FROM ${events} WHERE ${events.appendedAt} < ${p('cutoff')}
    ORDER BY ${events.appendedAt}, ${events.sequence} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
  )) RETURNING sequence, session_key
)
SELECT session_key, max(sequence), count(*)::bigint FROM victims GROUP BY session_key`),
    /** {maxRows, limit} → deletes the lowest sequences beyond the newest `maxRows`; [sessionKey, highest deleted, count, boundary] per session. */
    deleteCappedEvents: q<Limit & { maxRows: number }>(sql`WITH boundary AS (${shared.capBoundary}),
victims AS (
  DELETE FROM ${events} WHERE ${events.sequence} = ANY(ARRAY(
    SELECT ${events.sequence} FROM ${events} WHERE ${events.sequence} <= (SELECT sequence FROM boundary)
    ORDER BY ${events.sequence} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
  )) RETURNING sequence, session_key
)
SELECT session_key, max(sequence), count(*)::bigint, (SELECT sequence FROM boundary) FROM victims GROUP BY session_key`),
    /** {cutoff, limit} → deletes up to `limit` cursors untouched since `cutoff`; returns each as CursorValues. */
    expireIdleCursors: q<Cutoff & Limit>(sql`DELETE FROM ${cursors} WHERE (${cursors.watcher}, ${cursors.target}) IN (
  SELECT ${cursors.watcher}, ${cursors.target} FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cutoff')} LIMIT ${p('limit')} FOR UPDATE SKIP LOCKED
) RETURNING watcher, target, acked, notified, material, touched_at, taken_until, ambient`),
    /** → [aged event left, idle cursor left, aged journal entry after `after`]: the end-of-batch probes in one round trip, each only when
     * flagged. Scalar subqueries, not EXISTS, whose ORDER BY the planner drops. */
    batchLeft: q<Cutoff & { byAge: boolean; cursorCutoff: number; cursorsByAge: boolean; after: number }>(sql`SELECT ${p('byAge')}::boolean AND (${shared.agedLeft}) IS NOT NULL,
  ${p('cursorsByAge')}::boolean AND (SELECT 1 FROM ${cursors} WHERE ${cursors.touchedAt} < ${p('cursorCutoff')} ORDER BY ${cursors.touchedAt} LIMIT 1) IS NOT NULL,
  ${p('byAge')}::boolean AND (${shared.agedJournalAfter}) IS NOT NULL`),
    /** {positions} → deletes those journal entries (a retention window's plan) that no other gateway's prune holds. */
    deleteJournalEntries: q<{ positions: readonly number[] }>(sql`DELETE FROM ${cursorJournal} WHERE ${cursorJournal.position} = ANY(ARRAY(
  SELECT ${cursorJournal.position} FROM ${cursorJournal} WHERE ${cursorJournal.position} = ANY(${p('positions')}::bigint[]) FOR UPDATE SKIP LOCKED
))`),
  });
}

/** Every statement of the store on `tables`' schema, rendered once at open. */
export function prepareStatements(tables: StoreTables): Statements {
  return { ...compileAll<SharedQueries>(sharedStatements(tables)), ...ownStatements(tables) };
}
