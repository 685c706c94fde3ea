// Explicit or ambient watch: lock the target's head and the pair's cursor, planWatch, write the new cursor and its watch_started entry, or a promotion.
import { decodeStoredCursors, headOfRow } from '@session-state/adapters-sql-common';
import { assertStoreKey, planWatch, ZERO, type WatchRequest } from '@session-state/domain';

import { inTransaction, NO_COMMIT_CHECK, run } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { writeCursorPlan } from './journal.js';

/** Creates the pair's cursor at the target's head unless one exists (an explicit watch promotes an ambient one), under the head-row lock (an append lands before or after). */
export async function watch(db: StoreDb, request: WatchRequest): Promise<{ created: boolean }> {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    const [locked] = await run(client, st.lockHead, { sessionKey: request.target });
    // Locked as a drain locks it, so a promotion writes the watermarks it read.
    const values = await run(client, st.drainCursors, { watcher: request.watcher, targets: [request.target] });
    const [existing] = decodeStoredCursors(db, 'watch', values);
    // A corrupt row is reported and left as it is: the pair has a cursor, if an unreadable one.
    if (values.length > 0 && existing === undefined) return { created: false };
    const plan = planWatch({ request, existing, head: locked === undefined ? ZERO : headOfRow(locked).head });
    await writeCursorPlan(db, client, plan);
    return { created: plan.created };
  }, NO_COMMIT_CHECK);
}
