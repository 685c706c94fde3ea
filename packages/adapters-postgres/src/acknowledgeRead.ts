// A reconcile that acknowledges (issue 15): lock the pair's cursor, plan (`planAcknowledgeRead`), write
// the moved row and its `notice_read` entry, and signal the target, all in one transaction.
import { decodeStoredCursors } from '@session-state/adapters-sql-common';
import { assertStoreKey, planAcknowledgeRead, type AcknowledgeReadOutcome, type AcknowledgeReadRequest } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal.js';
import { signalPairs } from './signal.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, run } from './transaction.js';

/**
 * Acknowledges what the watcher's read covered (nothing when it covered nothing new). An
 * acknowledgement signals the target when it commits: the reader may run in another process
 * than the gateway owning the watcher, whose re-read then picks up a reopened notice.
 */
export async function acknowledgeRead(db: StoreDb, request: AcknowledgeReadRequest): Promise<AcknowledgeReadOutcome> {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  return inTransaction(db, async (client) => {
    const locked = await run(client, db.statements.drainCursors, { watcher: request.watcher, targets: [request.target] });
    const [existing] = decodeStoredCursors(db, 'acknowledgeRead', locked);
    const plan = planAcknowledgeRead({ request, existing });
    if (!plan.outcome.acknowledged) return plan.outcome;
    await writeCursorPlan(db, client, plan);
    await signalPairs(db, client, [{ watcher: request.watcher, target: request.target }]);
    return plan.outcome;
  });
}
