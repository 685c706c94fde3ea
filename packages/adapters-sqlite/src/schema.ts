// The drizzle tables of the SQLite store; drizzle-kit generates the migrations from them.
import { orm, sqliteCore } from './db/drizzle.js';

const { sql } = orm;
const { index, integer, primaryKey, sqliteTable, text } = sqliteCore;

/** Every retained event; `sequence` is one AUTOINCREMENT counter, never reused. */
export const events = sqliteTable(
  'events',
  {
    sequence: integer('sequence').primaryKey({ autoIncrement: true }),
    sessionKey: text('session_key').notNull(),
    kind: text('kind').notNull(),
    actorType: text('actor_type').notNull(),
    actorSessionKey: text('actor_session_key'),
    summary: text('summary').notNull(),
    /** JSON text, or null when the event has no payload; parsed by the row decoder. */
    payload: text('payload'),
    dedupeKey: text('dedupe_key').unique('events_dedupe_key_unique'),
    occurredAt: text('occurred_at').notNull(),
    /** Clock milliseconds of the append; retention ages are measured from it. */
    appendedAt: integer('appended_at').notNull(),
  },
  (table) => [
    index('events_session_sequence').on(table.sessionKey, table.sequence),
    index('events_appended_at').on(table.appendedAt),
  ],
);

/** The durable per-session head and prune watermark; never deleted (the tombstone). */
export const heads = sqliteTable('heads', {
  sessionKey: text('session_key').primaryKey(),
  head: integer('head').notNull(),
  pruneWatermark: integer('prune_watermark').notNull().default(0),
  /** The newest notifying event, its actor and time, and the newest of another actor: pending watchers' material (logMaterial.ts). */
  lastNotify: integer('last_notify'),
  lastNotifyActor: text('last_notify_actor'),
  lastNotifyAt: integer('last_notify_at'),
  otherNotify: integer('other_notify'),
  otherNotifyAt: integer('other_notify_at'),
});

/** One cursor per (watcher, target) pair, always acked ≤ notified ≤ material. */
export const cursors = sqliteTable(
  'cursors',
  {
    watcher: text('watcher').notNull(),
    target: text('target').notNull(),
    acked: integer('acked').notNull(),
    notified: integer('notified').notNull(),
    material: integer('material').notNull(),
    touchedAt: integer('touched_at').notNull(),
    /** While the notice is taken, the end of its lease (clock ms); null otherwise. */
    takenUntil: integer('taken_until'),
    /** 1 for an ambient watch (its notices wake nobody), else 0. */
    ambient: integer('ambient').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.watcher, table.target] }),
    index('cursors_target').on(table.target),
    // Partial and covering: scanPending (the restart scan and re-reads) reads only this index.
    index('cursors_lagging')
      .on(table.watcher, table.target, table.acked, table.notified, table.material, table.takenUntil, table.ambient)
      .where(sql`${table.material} > ${table.acked}`),
    index('cursors_touched_at').on(table.touchedAt),
  ],
);

/** One row per cursor event, with the cursor's watermarks after it; `position` is the append order. */
export const cursorJournal = sqliteTable(
  'cursor_journal',
  {
    position: integer('position').primaryKey({ autoIncrement: true }),
    watcher: text('watcher').notNull(),
    target: text('target').notNull(),
    type: text('type').notNull(),
    /** The reason of a `watch_ended`, else null. */
    reason: text('reason'),
    /** How a `watch_started` began (spawn, watch or ambient), else null. */
    via: text('via'),
    acked: integer('acked').notNull(),
    notified: integer('notified').notNull(),
    material: integer('material').notNull(),
    /** Clock milliseconds of the operation; journal retention ages are measured from it. */
    recordedAt: integer('recorded_at').notNull(),
    /** The cursor's lease end after the entry, or null. */
    takenUntil: integer('taken_until'),
    /** The cursor's class after the entry: 1 for an ambient watch, else 0. */
    ambient: integer('ambient').notNull().default(0),
  },
  (table) => [
    // A pair's history, and "is there a later entry of this pair" for retention.
    index('cursor_journal_pair').on(table.watcher, table.target, table.position),
    index('cursor_journal_recorded_at').on(table.recordedAt),
  ],
);

/** One row per applied migration; the runner creates it, so it is not in the generated migrations. */
export const schemaMigrations = sqliteTable('schema_migrations', {
  version: integer('version').primaryKey(),
  name: text('name').notNull(),
  appliedAt: integer('applied_at').notNull(),
});

export const schema = { events, heads, cursors, cursorJournal, schemaMigrations };

/** The tables the shared statements are written over (adapters-sql-common's SqlTables). */
export const tables = { events, heads, cursors, cursorJournal };
