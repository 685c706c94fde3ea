// The drizzle table definitions of the PostgreSQL store, which the queries are built from, in
// the store's own schema: every rendered name is schema-qualified ("schema"."events"), so what a
// statement touches never depends on a connection's search_path. The committed migrations
// (drizzle/, embedded in src/migrations/generated.ts) are generated from these by drizzle-kit,
// against a placeholder schema the runner replaces with the configured one (see migrate.ts);
// `npm run check:migrations` fails when the two disagree. The one thing drizzle cannot declare,
// the pending-cursor index's INCLUDE, is drizzle-kit's custom migration 0001 (see cursors below).
import { pgCore } from './drizzle.js';

const { bigint, customType, index, json, pgSchema, primaryKey, text, uniqueIndex } = pgCore;

/**
 * Keys are compared and ordered byte-wise (COLLATE "C"), as in every other store, whatever the
 * database's default collation is. drizzle has no column collation, so the type carries it.
 */
const keyText = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * The store's tables in `schemaName` (a checked name: see options.ts).
 *
 * @example const { events } = storeTables('session_state'); // renders "session_state"."events"
 */
export function storeTables(schemaName: string) {
  const schema = pgSchema(schemaName);
  const pgTable = schema.table;

  // --- the signal log ----------------------------------------------------------------------

  /** The global event counter (see appendEvents.ts); a value is never handed out twice. */
  const eventSequence = schema.sequence('event_sequence');

  /**
   * Every retained event. `sequence` is drawn from the `event_sequence` sequence while the
   * session's head row is locked (see appendEvents.ts), so a session's sequences are committed in
   * increasing order under concurrent gateways, and a value is never handed out twice.
   */
  const events = pgTable(
    'events',
    {
      sequence: bigint('sequence', { mode: 'number' }).primaryKey(),
      sessionKey: keyText('session_key').notNull(),
      kind: text('kind').notNull(),
      actorType: text('actor_type').notNull(),
      actorSessionKey: keyText('actor_session_key'),
      summary: text('summary').notNull(),
      /** `json` (not `jsonb`), so a payload comes back with its keys in the order it was given. */
      payload: json('payload'),
      dedupeKey: keyText('dedupe_key'),
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
    sessionKey: keyText('session_key').primaryKey(),
    head: bigint('head', { mode: 'number' }).notNull(),
    pruneWatermark: bigint('prune_watermark', { mode: 'number' }).notNull().default(0),
  });

  // --- watchers ------------------------------------------------------------------------------

  /** One cursor per (watcher, target) pair, always acked ≤ notified ≤ material. */
  const cursors = pgTable(
    'cursors',
    {
      watcher: keyText('watcher').notNull(),
      target: keyText('target').notNull(),
      acked: bigint('acked', { mode: 'number' }).notNull(),
      notified: bigint('notified', { mode: 'number' }).notNull(),
      material: bigint('material', { mode: 'number' }).notNull(),
      touchedAt: bigint('touched_at', { mode: 'number' }).notNull(),
    },
    (table) => [
      primaryKey({ name: 'cursors_pkey', columns: [table.watcher, table.target] }),
      index('cursors_target').on(table.target, table.watcher),
      // cursors_lagging, partial and covering: (watcher, target) INCLUDE (acked, notified, material)
      // WHERE material > acked, which the restart scan and pendingNotices read alone. drizzle has
      // no INCLUDE, so it is drizzle-kit's custom migration drizzle/0001_cursors_lagging.sql.
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
      watcher: keyText('watcher').notNull(),
      target: keyText('target').notNull(),
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

  /** One row per applied migration; the runner creates it (see migrate.ts), so it is not in the generated migrations. */
  const schemaMigrations = pgTable('schema_migrations', {
    version: bigint('version', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    appliedAt: bigint('applied_at', { mode: 'number' }).notNull(),
  });
  return { eventSequence, events, heads, cursors, cursorJournal, schemaMigrations };
}

/** The drizzle schema object passed to `drizzle()`: the tables of one schema. */
export type StoreTables = ReturnType<typeof storeTables>;
