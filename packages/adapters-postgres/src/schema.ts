// The drizzle table definitions of the PostgreSQL store, which the queries are built from, in
// the store's own schema: every rendered name is schema-qualified ("schema"."events"), so what a
// statement touches never depends on a connection's search_path. The committed migrations
// create these tables (plus COLLATE "C" keys and an INCLUDE on the pending-cursor index, which drizzle
// cannot express).
import { sql } from 'drizzle-orm';
import { bigint, index, json, pgSchema, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

// Keys are compared and ordered byte-wise (COLLATE "C", set in the migration), as in every
// other store, whatever the database's default collation is.

/**
 * The store's tables in `schemaName` (a checked name: see options.ts).
 *
 * @example const { events } = storeTables('session_state'); // renders "session_state"."events"
 */
export function storeTables(schemaName: string) {
  const pgTable = pgSchema(schemaName).table;

  // --- the signal log ----------------------------------------------------------------------

  /**
   * Every retained event. `sequence` is drawn from the `event_sequence` sequence while the
   * session's head row is locked (see appendEvents.ts), so a session's sequences are committed in
   * increasing order under concurrent gateways, and a value is never handed out twice.
   */
  const events = pgTable(
    'events',
    {
      sequence: bigint('sequence', { mode: 'number' }).primaryKey(),
      sessionKey: text('session_key').notNull(),
      kind: text('kind').notNull(),
      actorType: text('actor_type').notNull(),
      actorSessionKey: text('actor_session_key'),
      summary: text('summary').notNull(),
      /** `json` (not `jsonb`), so a payload comes back with its keys in the order it was given. */
      payload: json('payload'),
      dedupeKey: text('dedupe_key'),
      occurredAt: text('occurred_at').notNull(),
      /** Clock milliseconds of the append; retention ages are measured from it. */
      appendedAt: bigint('appended_at', { mode: 'number' }).notNull(),
    },
    (table) => [
      uniqueIndex('events_dedupe_key_unique').on(table.dedupeKey),
      index('events_session_sequence').on(table.sessionKey, table.sequence),
      index('events_appended_at').on(table.appendedAt, table.sequence),
    ],
  );

  /** The durable per-session head and prune watermark; never deleted (the tombstone). Its row lock orders a session's appends. */
  const heads = pgTable('heads', {
    sessionKey: text('session_key').primaryKey(),
    head: bigint('head', { mode: 'number' }).notNull(),
    pruneWatermark: bigint('prune_watermark', { mode: 'number' }).notNull().default(0),
  });

  // --- watchers ------------------------------------------------------------------------------

  /** One cursor per (watcher, target) pair, always acked ≤ notified ≤ material. */
  const cursors = pgTable(
    'cursors',
    {
      watcher: text('watcher').notNull(),
      target: text('target').notNull(),
      acked: bigint('acked', { mode: 'number' }).notNull(),
      notified: bigint('notified', { mode: 'number' }).notNull(),
      material: bigint('material', { mode: 'number' }).notNull(),
      touchedAt: bigint('touched_at', { mode: 'number' }).notNull(),
    },
    (table) => [
      primaryKey({ columns: [table.watcher, table.target] }),
      index('cursors_target').on(table.target, table.watcher),
      index('cursors_lagging').on(table.watcher, table.target).where(sql`${table.material} > ${table.acked}`),
      index('cursors_touched_at').on(table.touchedAt),
    ],
  );

  // --- the cursor journal -----------------------------------------------------------------------

  /**
   * One row per cursor event a store operation decided (see the domain's cursorJournal.ts), with
   * the cursor's watermarks after it. `position` (an identity, drawn while the pair's cursor row
   * or its target's head row is locked) orders each pair's entries as they committed.
   */
  const cursorJournal = pgTable(
    'cursor_journal',
    {
      position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
      watcher: text('watcher').notNull(),
      target: text('target').notNull(),
      type: text('type').notNull(),
      /** The reason of a `watch_ended`, else null. */
      reason: text('reason'),
      /** How a `watch_started` began (spawn or watch), else null. */
      via: text('via'),
      acked: bigint('acked', { mode: 'number' }).notNull(),
      notified: bigint('notified', { mode: 'number' }).notNull(),
      material: bigint('material', { mode: 'number' }).notNull(),
      /** Clock milliseconds of the operation; journal retention ages are measured from it. */
      recordedAt: bigint('recorded_at', { mode: 'number' }).notNull(),
    },
    (table) => [
      index('cursor_journal_pair').on(table.watcher, table.target, table.position),
      index('cursor_journal_recorded_at').on(table.recordedAt),
    ],
  );

  // --- bookkeeping ---------------------------------------------------------------------------

  /** One row per applied migration. */
  const schemaMigrations = pgTable('schema_migrations', {
    version: bigint('version', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    appliedAt: bigint('applied_at', { mode: 'number' }).notNull(),
  });
  return { events, heads, cursors, cursorJournal, schemaMigrations };
}

/** The drizzle schema object passed to `drizzle()`: the tables of one schema. */
export type StoreTables = ReturnType<typeof storeTables>;
