// A read that acknowledges: lock the pair's cursor, planAcknowledgeRead, write the row and its entry, and signal the target, in one transaction.
import { decodeStoredCursors } from '@session-state/adapters-sql-common';
import { assertStoreKey, planAcknowledgeRead, type AcknowledgeReadOutcome, type AcknowledgeReadRequest } from '@session-state/domain';

import { inTransaction, run } from '../connection/transaction.js';
import { signalPairs } from '../signals/notify.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';

/** Acknowledges what the read covered; the signal lets the owner (maybe another process) pick up a reopened notice. */
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
