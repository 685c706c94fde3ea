// The open database every operation takes first: the driver's client, the query builder, the statements
// prepared once at open, and where corrupt rows are reported.
import type { CorruptRowSink } from '@session-state/domain';

import type { SqliteClient } from '../driver/driver.js';
import type { Statements } from '../statements.js';

export interface StoreDb extends CorruptRowSink {
  readonly client: SqliteClient;
  readonly statements: Statements;
  /** Set on a read-only snapshot (see readOnlyDatabase.ts): true once the file has changed since it was taken. */
  readonly isStale?: () => boolean;
}

/** `build` run once per open database, its result kept for that database (statements, transaction functions). */
export function perDb<T>(build: (db: StoreDb) => T): (db: StoreDb) => T {
  const built = new WeakMap<StoreDb, T>();
  return (db) => {
    let found = built.get(db);
    if (found === undefined) built.set(db, (found = build(db)));
    return found;
  };
}
