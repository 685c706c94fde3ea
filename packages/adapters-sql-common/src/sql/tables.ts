// The tables both SQL adapters define, as the shared code sees them, and one column list per row shape in the row decoders' order.
import type { AnyColumn, Table } from 'drizzle-orm';

type TableWith<Field extends string> = Table & { readonly [F in Field]: AnyColumn };

/** A store's four tables, in either dialect. */
export interface SqlTables {
  readonly events: TableWith<'sequence' | 'sessionKey' | 'kind' | 'actorType' | 'actorSessionKey' | 'summary' | 'payload' | 'dedupeKey' | 'occurredAt' | 'appendedAt'>;
  readonly heads: TableWith<'sessionKey' | 'head' | 'pruneWatermark'>;
  readonly cursors: TableWith<'watcher' | 'target' | 'acked' | 'notified' | 'material' | 'touchedAt' | 'takenUntil' | 'ambient'>;
  readonly cursorJournal: TableWith<'position' | 'watcher' | 'target' | 'type' | 'reason' | 'via' | 'acked' | 'notified' | 'material' | 'recordedAt' | 'takenUntil' | 'ambient'>;
}

/** StoredEventValues order: a SessionEvent's fields first, so a changes read selects only those (SESSION_EVENT_FIELDS). */
export const EVENT_FIELDS = ['sequence', 'kind', 'actorType', 'actorSessionKey', 'summary', 'occurredAt', 'payload', 'sessionKey', 'dedupeKey', 'appendedAt'] as const;
export const SESSION_EVENT_FIELDS = EVENT_FIELDS.slice(0, 7) as readonly (typeof EVENT_FIELDS)[number][];
/** CursorValues order. */
export const CURSOR_FIELDS = ['watcher', 'target', 'acked', 'notified', 'material', 'touchedAt', 'takenUntil', 'ambient'] as const;
/** A pending cursor's columns: the pair, the watermarks, the lease and the class, all held by the pending-cursor index (see decodePendingRows). */
export const PENDING_FIELDS = ['watcher', 'target', 'acked', 'notified', 'material', 'takenUntil', 'ambient'] as const;
/** A journal select's column order: the position, then JournalParams' fields. */
export const JOURNAL_FIELDS = ['position', 'watcher', 'target', 'type', 'reason', 'via', 'acked', 'notified', 'material', 'recordedAt', 'takenUntil', 'ambient'] as const;

/** The `fields` of `table` as a drizzle selection object (its key order is the select's column order). */
export function columnsOf<T, K extends keyof T & string>(table: T, fields: readonly K[]): { [F in K]: T[F] } {
  const picked = {} as { [F in K]: T[F] };
  for (const field of fields) picked[field] = table[field];
  return picked;
}
