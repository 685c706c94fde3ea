// Removing cursors (reset, delete, expiry): the rows a `DELETE … RETURNING` gave back are planned
// by `planRemoval`; its `watch_ended` entries are written and the pairs signalled (signal.ts) in
// the same transaction.
import { decodeStoredCursors } from '@session-state/adapters-sql-common';
import { planRemoval, type CursorPair, type EndReason } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { writeJournal } from './cursorJournal.js';
import type { StoreDb } from './storeDb.js';
import { signalPairs } from './signal.js';

/**
 * Journals the removal of `deleted` (CursorValues rows the caller's transaction deleted), signals
 * their targets when it commits (the gateway owning each watcher re-reads its cursors there and
 * withdraws a notice it still queues for a pair that is gone: listen.ts, the facade), and returns
 * the removed pairs, ordered by watcher then target. A corrupt row is reported and left out, as
 * every cursor reader does: it is gone, but never used.
 */
export async function journalRemoval(
  db: StoreDb,
  client: PoolClient,
  operation: string,
  deleted: readonly (readonly unknown[])[],
  reason: EndReason,
  now: number,
): Promise<CursorPair[]> {
  const plan = planRemoval({ cursors: decodeStoredCursors(db, operation, deleted), reason, now });
  await writeJournal(db, client, plan.journal);
  await signalPairs(db, client, plan.removed);
  return [...plan.removed];
}
