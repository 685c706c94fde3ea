// The hot queries, built once at open with drizzle's `.prepare()` and `sql.placeholder`, and
// read with `.values()` (positional rows, decoded by hand) so drizzle adds no per-row mapping.
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';

import { cursors, events, heads, type schema } from './schema';

type Orm = BetterSQLite3Database<typeof schema>;

// --- column lists (their order is EventValues / CursorValues) ------------------------------

const eventColumns = {
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

const cursorColumns = {
  watcher: cursors.watcher,
  target: cursors.target,
  acked: cursors.acked,
  notified: cursors.notified,
  material: cursors.material,
  touchedAt: cursors.touchedAt,
};

const p = (name: string) => sql.placeholder(name);

// --- the statements ------------------------------------------------------------------------

export function prepareStatements(orm: Orm) {
  return {
    /** The event holding a dedupe key, as EventValues. */
    eventByDedupeKey: orm.select(eventColumns).from(events).where(eq(events.dedupeKey, p('dedupeKey'))).prepare(),

    /** Every cursor on a target, as CursorValues. */
    cursorsOnTarget: orm.select(cursorColumns).from(cursors).where(eq(cursors.target, p('target'))).prepare(),

    /** Inserts an event; the sequence is the run result's `lastInsertRowid`. */
    insertEvent: orm
      .insert(events)
      .values({
        sessionKey: p('sessionKey'),
        kind: p('kind'),
        actorType: p('actorType'),
        actorSessionKey: p('actorSessionKey'),
        summary: p('summary'),
        payload: p('payload'),
        dedupeKey: p('dedupeKey'),
        occurredAt: p('occurredAt'),
        appendedAt: p('appendedAt'),
      })
      .prepare(),

    /** head = max(head, :sequence), creating the row at a zero prune watermark. */
    raiseHead: orm
      .insert(heads)
      .values({ sessionKey: p('sessionKey'), head: p('sequence'), pruneWatermark: 0 })
      .onConflictDoUpdate({ target: heads.sessionKey, set: { head: sql`max(${heads.head}, excluded.head)` } })
      .prepare(),

    /** Writes a cursor row whole (insert or overwrite). */
    upsertCursor: orm
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
      })
      .prepare(),

    /**
     * The head, the prune watermark and the retained events after `since`, in ONE statement so
     * they come from one snapshot: [head, pruneWatermark, ...EventValues] per row; a single row
     * with null event columns when there are none; no row when the session has no head.
     */
    changesSince: orm
      .select({ head: heads.head, pruneWatermark: heads.pruneWatermark, ...eventColumns })
      .from(heads)
      .leftJoin(events, and(eq(events.sessionKey, heads.sessionKey), gt(events.sequence, p('since'))))
      .where(eq(heads.sessionKey, p('sessionKey')))
      .orderBy(asc(events.sequence))
      .limit(p('limit'))
      .prepare(),

    /** The head row of one session. */
    headOf: orm
      .select({ head: heads.head, pruneWatermark: heads.pruneWatermark })
      .from(heads)
      .where(eq(heads.sessionKey, p('sessionKey')))
      .prepare(),

    /** One cursor by its pair, as CursorValues. */
    cursorOf: orm
      .select(cursorColumns)
      .from(cursors)
      .where(and(eq(cursors.watcher, p('watcher')), eq(cursors.target, p('target'))))
      .prepare(),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

export { cursorColumns, eventColumns };
