// The open store every operation takes first: the connection pool, the drizzle handle and the
// tables (in the store's schema) the queries are built with, the statements built once at open,
// the signal channel, and where corrupt rows are reported.
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { ClientConfig, Pool } from 'pg';
import type { CorruptRowSink } from '@session-state/domain';

import type { StoreTables } from './schema.js';
import type { Statements } from './statements.js';

/** Re-exported under the adapter's name; the one definition lives beside the domain's ports. */
export type { CorruptRowInfo } from '@session-state/domain';

export interface StoreDb extends CorruptRowSink {
  readonly pool: Pool;
  readonly orm: NodePgDatabase<StoreTables>;
  /** The store's tables, in its own schema. */
  readonly tables: StoreTables;
  readonly statements: Statements;
  /** The LISTEN/NOTIFY channel of this store's schema (see listen.ts). */
  readonly channel: string;
  /** The settings of a connection for work without the pool's bounds (VACUUM; see unboundedClient.ts). */
  readonly unboundedConfig: ClientConfig;
}
