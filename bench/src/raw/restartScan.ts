// The raw restart scan: in one transaction, raise every pending cursor's notified to material and
// journal each raise (notice_recovered), as the store does.
import type { RawDb } from './rawDb.js';

/** Runs the scan at `now`; returns how many pairs are pending. */
export function rawRestartScan(db: RawDb, now: number): number {
  const { st } = db;
  return db.client
    .transaction((): number => {
      const pending = st.pendingCursors.all();
      for (const c of pending) {
        if (c.notified === c.material) continue;
        st.raiseNotified.run(now, c.watcher, c.target);
        st.insertJournal.run(c.watcher, c.target, 'notice_recovered', null, null, c.acked, c.material, c.material, now);
      }
      return pending.length;
    })
    .immediate();
}
