// The open store every operation takes first: pool, tables, statements built at open, signal channel and corrupt-row sink.
import type { CorruptRowSink } from '@session-state/domain';
import type { ClientConfig, Pool } from 'pg';

import type { StoreTables } from './schema.js';
import type { Statements } from './statements.js';

export interface StoreDb extends CorruptRowSink {
  readonly pool: Pool;
  readonly tables: StoreTables;
  readonly statements: Statements;
  /** The LISTEN/NOTIFY channel of this store's schema. */
  readonly channel: string;
  /** A connection's settings for work without the pool's bounds (VACUUM). */
  readonly unboundedConfig: ClientConfig;
}
