// The open database every operation takes first: the driver, the drizzle handle, the statements
// prepared once at open, and where corrupt rows are reported.
import type Database from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';

import type { schema } from './schema';
import type { Statements } from './statements';

/** What is reported about a stored row that cannot be decoded; never the row's content. */
export interface CorruptRowInfo {
  /** The store operation that met the row, e.g. `readChanges`. */
  readonly operation: string;
  readonly table: 'events' | 'cursors';
  /** The event's sequence (for `events` rows). */
  readonly sequence?: number;
  /** Which check failed, e.g. `payload is not a JSON object`; names no stored value. */
  readonly reason: string;
}

export interface StoreDb {
  readonly client: Database.Database;
  readonly orm: BetterSQLite3Database<typeof schema>;
  readonly statements: Statements;
  readonly onCorruptRow: (info: CorruptRowInfo) => void;
}
