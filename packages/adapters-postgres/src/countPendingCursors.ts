// Counts the pending cursors (material > acked) for a metrics scrape: one count over the partial
// index cursors_lagging, on its own connection, no lock.
import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';

export async function countPendingCursors(db: StoreDb): Promise<number> {
  // count(*) is a bigint, which pg returns as a string.
  const [row] = await runAlone(db, db.statements.countPendingCursors, {});
  return Number(row?.[0] ?? 0);
}
