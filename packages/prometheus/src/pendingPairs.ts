// The pending-pairs gauge's reading: the store's own count when it offers one (one count on its
// pending index), otherwise its cursors listed and the pending ones counted.
import { fromWatermarks, type StateStore } from '@session-state/domain';

/** What the gauge reads from a store: `countPendingCursors` when present, else `listCursors`. */
export type PendingPairsSource = Pick<StateStore, 'listCursors'> & Partial<Pick<StateStore, 'countPendingCursors'>>;

/** How many cursors of `store` are pending (material > acked). */
export async function countPendingPairs(store: PendingPairsSource): Promise<number> {
  if (store.countPendingCursors !== undefined) return store.countPendingCursors();
  const rows = await store.listCursors();
  return rows.filter((row) => fromWatermarks(row).status === 'pending').length;
}
