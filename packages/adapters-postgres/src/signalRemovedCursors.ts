// Cursors removed by a reset, a session delete or cursor expiry are signalled by their targets,
// in the removing transaction: the gateway owning each watcher re-reads its cursors on those
// targets and withdraws a notice it still queues for a pair that is gone (listen.ts, awareness).
import type { CursorPair } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { StoreDb } from './storeDb';
import { run } from './transaction';

/** Sends one signal per distinct target of `removed` when the transaction commits (none if empty). */
export async function signalRemovedCursors(db: StoreDb, client: PoolClient, removed: readonly CursorPair[]): Promise<void> {
  if (removed.length === 0) return;
  await run(client, db.statements.notifyTargets, [db.channel, removed.map((pair) => pair.target)]);
}
