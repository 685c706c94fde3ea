// The raw restart scan: select every lagging cursor (material > acked) and raise its notified
// to material, journaling each raise (notice_recovered) as the store does, in one transaction,
// returning the pairs that get a notice again.
import type { RawDb } from './rawDb.js';

/** Runs the scan at `now`; returns how many pairs are re-noticed. */
export function rawRestartScan(db: RawDb, now: number): number {
  const { st } = db;
  return db.client
    .transaction((): number => {
      const lagging = st.laggingCursors.all();
      for (const c of lagging) {
        if (c.notified !== c.material) {
          st.raiseNotified.run(now, c.watcher, c.target);
          st.insertJournal.run(c.watcher, c.target, 'notice_recovered', null, null, c.acked, c.material, c.material, now);
        }
      }
      return lagging.length;
    })
    .immediate();
}
