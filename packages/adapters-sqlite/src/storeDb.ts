// The open database every operation takes first: the driver, the drizzle handle, the statements
// prepared once at open, and where corrupt rows are reported.
import type Database from 'better-sqlite3';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { CorruptRowSink } from '@session-state/domain';

import type { schema } from './schema.js';
import type { Statements } from './statements.js';

/** Re-exported under the adapter's name; the one definition lives beside the domain's ports. */
export type { CorruptRowInfo } from '@session-state/domain';

export interface StoreDb extends CorruptRowSink {
  readonly client: Database.Database;
  readonly orm: BetterSQLite3Database<typeof schema>;
  readonly statements: Statements;
  /** Set on a read-only snapshot (see readOnlyDatabase.ts): true once the file has changed since it was taken. */
  readonly isStale?: () => boolean;
}
