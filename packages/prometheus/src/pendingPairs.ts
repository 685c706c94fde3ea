// The pending-pairs gauge's reading: the store's overview counts when it offers them (counted in
// the store), otherwise its cursors listed and the pending ones counted.
import { fromWatermarks, isOverviewSource, type OverviewSource, type StateStore } from '@session-state/domain';

/** What the gauge reads from a store: `readOverview` when present, else `listCursors`. */
export type PendingPairsSource = Pick<StateStore, 'listCursors'> & Partial<OverviewSource>;

/** How many cursors of `store` are pending (material > acked). */
export async function countPendingPairs(store: PendingPairsSource): Promise<number> {
  if (isOverviewSource(store)) return (await store.readOverview({ heads: 0, cursors: 0 })).counts.pendingPairs;
  const rows = await store.listCursors();
  return rows.filter((row) => fromWatermarks(row).status === 'pending').length;
}
