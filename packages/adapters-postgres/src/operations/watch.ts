// Explicit watch: lock the target's head, read the pair's cursor, planWatch, write the new cursor and its watch_started entry.
import { decodeStoredCursors, headOfRow } from '@session-state/adapters-sql-common';
import { assertStoreKey, planWatch, ZERO, type WatchRequest } from '@session-state/domain';

import { inTransaction, NO_COMMIT_CHECK, run } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';
import { writeJournal } from './journal.js';

/** Creates the pair's cursor at the target's head unless one exists, under the head-row lock (an append lands before or after). */
export async function watch(db: StoreDb, request: WatchRequest): Promise<{ created: boolean }> {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    const [locked] = await run(client, st.lockHead, { sessionKey: request.target });
    const values = await run(client, st.cursorOf, { watcher: request.watcher, target: request.target });
    const [existing] = decodeStoredCursors(db, 'watch', values);
    // A corrupt row is reported and left as it is: the pair has a cursor, if an unreadable one.
    if (values.length > 0 && existing === undefined) return { created: false };
    const plan = planWatch({ request, existing, head: locked === undefined ? ZERO : headOfRow(locked).head });
    const [row] = plan.cursorWrites;
    // ON CONFLICT DO NOTHING: a concurrent watch of the pair that committed first wins.
    if (row === undefined || (await run(client, st.insertCursor, row)).length === 0) return { created: false };
    await writeJournal(db, client, plan.journal);
    return { created: true };
  }, NO_COMMIT_CHECK);
}
