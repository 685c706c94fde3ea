// The store's drizzle tables in its own schema (every name qualified, so no statement depends on search_path); drizzle-kit migrates from them.
import { pgCore } from './drizzle.js';

const { bigint, customType, index, json, pgSchema, primaryKey, smallint, text, uniqueIndex } = pgCore;

/** Keys compare byte-wise (COLLATE "C") as in every other store; drizzle has no column collation, so the type carries it. */
const keyText = customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/** The store's tables in `schemaName` (a checked name). */
export function storeTables(schemaName: string) {
  const schema = pgSchema(schemaName);
  const pgTable = schema.table;
  /** The global event counter, drawn under the session's head-row lock; a value is never handed out twice. */
  const eventSequence = schema.sequence('event_sequence');
  const events = pgTable(
    'events',
    {
      sequence: bigint('sequence', { mode: 'number' }).primaryKey(),
      sessionKey: keyText('session_key').notNull(),
      kind: text('kind').notNull(),
      actorType: text('actor_type').notNull(),
      actorSessionKey: keyText('actor_session_key'),
      summary: text('summary').notNull(),
      /** `json`, not `jsonb`: a payload keeps its key order. */
      payload: json('payload'),
      dedupeKey: keyText('dedupe_key'),
      occurredAt: text('occurred_at').notNull(),
      appendedAt: bigint('appended_at', { mode: 'number' }).notNull(),
    },
    (table) => [
      uniqueIndex('events_dedupe_key_unique').on(table.dedupeKey),
      index('events_session_sequence').on(table.sessionKey, table.sequence),
      index('events_appended_at').on(table.appendedAt, table.sequence),
    ],
  );

  /** The per-session head and prune watermark, never deleted (the tombstone); its row lock orders a session's appends. */
  const heads = pgTable('heads', {
    sessionKey: keyText('session_key').primaryKey(),
    head: bigint('head', { mode: 'number' }).notNull(),
    pruneWatermark: bigint('prune_watermark', { mode: 'number' }).notNull().default(0),
  });

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
      /** While the notice is taken, the end of its lease (clock ms); null otherwise. */
      takenUntil: bigint('taken_until', { mode: 'number' }),
      /** 1 for an ambient watch (its notices wake nobody), else 0. */
      ambient: smallint('ambient').notNull().default(0),
    },
    (table) => [
      primaryKey({ name: 'cursors_pkey', columns: [table.watcher, table.target] }),
      index('cursors_target').on(table.target, table.watcher),
      // The pending-cursor index (partial, covering) is the custom migration drizzle/0001: drizzle has no INCLUDE.
      index('cursors_touched_at').on(table.touchedAt),
    ],
  );

  /** One row per cursor event, with the cursor's watermarks after it; `position` (drawn under the pair's lock) orders a pair's entries. */
  const cursorJournal = pgTable(
    'cursor_journal',
    {
      position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
      watcher: keyText('watcher').notNull(),
      target: keyText('target').notNull(),
      type: text('type').notNull(),
      /** The reason of a `watch_ended`, else null. */
      reason: text('reason'),
      /** How a `watch_started` began (spawn, watch or ambient), else null. */
      via: text('via'),
      acked: bigint('acked', { mode: 'number' }).notNull(),
      notified: bigint('notified', { mode: 'number' }).notNull(),
      material: bigint('material', { mode: 'number' }).notNull(),
      recordedAt: bigint('recorded_at', { mode: 'number' }).notNull(),
      /** The cursor's lease end after the entry, or null. */
      takenUntil: bigint('taken_until', { mode: 'number' }),
      /** The cursor's class after the entry: 1 for an ambient watch, else 0. */
      ambient: smallint('ambient').notNull().default(0),
    },
    (table) => [
      index('cursor_journal_pair').on(table.watcher, table.target, table.position),
      index('cursor_journal_recorded_at').on(table.recordedAt),
    ],
  );

  return { eventSequence, events, heads, cursors, cursorJournal };
}

/** The drizzle schema object passed to `drizzle()`: the tables of one schema. */
export type StoreTables = ReturnType<typeof storeTables>;
