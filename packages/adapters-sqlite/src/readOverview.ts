// The inspector's overview (StateStore.readOverview): the counts by the database in one
// statement, and at most `limits` heads and cursors (pending ones first), each on an index in
// its order, so the read costs the same whatever the store holds. The pending cursors' material
// is raised from their targets' notify marks, as listCursors shows it.
import { overviewOfRows } from '@session-state/adapters-sql-common';
import type { OverviewLimits, StoreOverview } from '@session-state/domain';

import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from './storeDb.js';

export function readOverview(db: StoreDb, limits: OverviewLimits): StoreOverview {
  const { overviewCounts, firstHeads, firstPendingCursors, firstIdleCursors } = db.statements;
  const pending = firstPendingCursors.all({ limit: limits.cursors });
  const idle = pending.length < limits.cursors ? firstIdleCursors.all({ limit: limits.cursors - pending.length }) : [];
  const overview = overviewOfRows(db, overviewCounts.get({}) ?? [], firstHeads.all({ limit: limits.heads }), [...pending, ...idle]);
  return { ...overview, cursors: withLogMaterial(db, overview.cursors) };
}
