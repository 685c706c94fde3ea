// The open database every operation takes first: the driver's client, the statements prepared once at open, where corrupt rows go.
import type { CorruptRowSink } from '@session-state/domain';

import type { SqliteClient } from '../driver/driver.js';
import type { Statements } from '../statements.js';

export interface StoreDb extends CorruptRowSink {
  readonly client: SqliteClient;
  readonly statements: Statements;
  /** Set on a read-only snapshot (see readOnlyDatabase.ts): true once the file has changed since it was taken. */
  readonly isStale?: () => boolean;
}

