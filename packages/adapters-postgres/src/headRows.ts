// Head writes as the domain computes them, for the operations that lock head rows before writing
// them (delete, prune): `planHeadWrites` (adapters-sql-common) folds the signal-log events into
// each locked row and the results are written as given, in one statement. Appends write their
// head in the insert itself (see appendEvent in statements.ts for why).
import { planHeadWrites, type HeadChange } from '@session-state/adapters-sql-common';
import type { SignalLogHead } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { StoreDb } from './storeDb.js';
import { run } from './transaction.js';

/** Writes each changed head (every one was locked, so none is an insert); returns the heads after, by session. */
export async function writeHeads(db: StoreDb, client: PoolClient, changes: readonly HeadChange[]): Promise<Map<string, SignalLogHead>> {
  const { writes, after } = planHeadWrites(changes);
  if (writes.length > 0) {
    await run(client, db.statements.writeHeads, {
      sessionKeys: writes.map((w) => w.sessionKey),
      heads: writes.map((w) => w.head),
      pruneWatermarks: writes.map((w) => w.pruneWatermark),
    });
  }
  return after;
}
