// The restart scan: lock and read the pending cursors (material > acked), plan
// (`planRestartScan`: notified raised to material, one `recovered` notice per pending pair),
// write the raised rows and their `notice_recovered` entries. Running it twice changes nothing
// more. Only at start: a gateway's live re-reads (signals, the resync timer) use
// pendingNotices.ts, which never moves a watermark.
import { decodePendingRows } from '@session-state/adapters-sql-common';
import { planRestartScan, type Notice, type SessionKey } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal';
import type { StoreDb } from './storeDb';

/** The restart scan over pending cursors (those whose watcher passes `owns`), in one write transaction; one notice per pair. */
export function recover(db: StoreDb, now: number, owns?: (watcher: SessionKey) => boolean): readonly Notice[] {
  return db.client
    .transaction((): readonly Notice[] => {
      const cursors = decodePendingRows(db, 'restartScan', db.statements.pendingCursors.all({}), now, owns);
      const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now });
      writeCursorPlan(db, plan);
      return plan.notices;
    })
    .immediate();
}
