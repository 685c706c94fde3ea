// The inspector's overview (StateStore.readOverview): the counts by the server in one
// statement, and at most `limits` heads and cursors (pending ones first), each on an index in
// its order; each read on its own connection, no lock.
import { overviewOfRows } from '@session-state/adapters-sql-common';
import type { OverviewLimits, StoreOverview } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';

export async function readOverview(db: StoreDb, limits: OverviewLimits): Promise<StoreOverview> {
  const { overviewCounts, firstHeads, firstPendingCursors, firstIdleCursors } = db.statements;
  const [[counts], heads, pending] = await Promise.all([
    runAlone(db, overviewCounts, {}),
    runAlone(db, firstHeads, { limit: limits.heads }),
    runAlone(db, firstPendingCursors, { limit: limits.cursors }),
  ]);
  const idle = pending.length < limits.cursors ? await runAlone(db, firstIdleCursors, { limit: limits.cursors - pending.length }) : [];
  return overviewOfRows(db, counts ?? [], heads, [...pending, ...idle]);
}
