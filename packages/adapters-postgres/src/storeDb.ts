// The open store every operation takes first: the connection pool, the drizzle handle the
// queries are built with, the statements built once at open, the signal channel, and where
// corrupt rows are reported.
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';

import type { schema } from './schema';
import type { Statements } from './statements';

/** What is reported about a stored row that cannot be decoded; never the row's content. */
export interface CorruptRowInfo {
  /** The store operation that met the row, e.g. `readChanges`. */
  readonly operation: string;
  readonly table: 'events' | 'cursors';
  /** The event's sequence (for `events` rows). */
  readonly sequence?: number;
  /** Which check failed, e.g. `unknown kind`; names no stored value. */
  readonly reason: string;
}

export interface StoreDb {
  readonly pool: Pool;
  readonly orm: NodePgDatabase<typeof schema>;
  readonly statements: Statements;
  /** The LISTEN/NOTIFY channel of this store's schema (see listen.ts). */
  readonly channel: string;
  readonly onCorruptRow: (info: CorruptRowInfo) => void;
}
