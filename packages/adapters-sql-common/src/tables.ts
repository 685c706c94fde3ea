// The tables both SQL adapters define (each in its own dialect: sqlite-core, pg-core), as the
// shared code sees them: drizzle tables with these columns. The column lists and the shared
// statements are written over this shape once.
import type { AnyColumn, Table } from 'drizzle-orm';

type TableWith<Field extends string> = Table & { readonly [F in Field]: AnyColumn };

export type EventsTable = TableWith<
  'sequence' | 'sessionKey' | 'kind' | 'actorType' | 'actorSessionKey' | 'summary' | 'payload' | 'dedupeKey' | 'occurredAt' | 'appendedAt'
>;
export type HeadsTable = TableWith<'sessionKey' | 'head' | 'pruneWatermark'>;
export type CursorsTable = TableWith<'watcher' | 'target' | 'acked' | 'notified' | 'material' | 'touchedAt'>;
export type JournalTable = TableWith<
  'position' | 'watcher' | 'target' | 'type' | 'reason' | 'via' | 'acked' | 'notified' | 'material' | 'recordedAt'
>;

/** A store's four tables, in either dialect. */
export interface SqlTables {
  readonly events: EventsTable;
  readonly heads: HeadsTable;
  readonly cursors: CursorsTable;
  readonly cursorJournal: JournalTable;
}
