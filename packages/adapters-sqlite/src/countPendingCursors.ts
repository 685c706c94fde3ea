// Counts the pending cursors (material > acked) for a metrics scrape: one count over the covering
// partial index cursors_lagging, no row read.
import type { StoreDb } from './storeDb.js';

export function countPendingCursors(db: StoreDb): number {
  return Number((db.statements.countPendingCursors.get({}) as [number])[0]);
}
