// Head rows read and written inside the caller's write transaction, the writes as the domain folds them (`planHeadWrites`).
import { headOfRow, type HeadRowWrite } from '@session-state/adapters-sql-common';
import type { SignalLogHead } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';

/** The session's head row, or undefined when it has none. */
export function readHead(db: StoreDb, sessionKey: string): SignalLogHead | undefined {
  const row = db.statements.headOf.get({ sessionKey });
  return row === undefined ? undefined : headOfRow(row);
}

export function writeHeads(db: StoreDb, writes: readonly HeadRowWrite[]): void {
  for (const write of writes) db.statements[write.insert ? 'insertHead' : 'updateHead'].run(write);
}
