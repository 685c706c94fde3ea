// Drain: acknowledges the notices a watcher's turn consumed, all in one transaction: lock and
// read the acked cursors, plan (`planDrain`, the compare-and-swap per ack), write the moved rows
// and their journal entries.
import { assertStoreKey, planDrain, type DrainAck, type DrainOutcome, type SessionKey } from '@session-state/domain';

import { writeCursorPlan } from './cursorJournal';
import { decodeCursorRows } from './cursorRow';
import type { StoreDb } from './storeDb';
import { inTransaction, run } from './transaction';

/** All or nothing: any failure rolls back every ack and rejects. */
export async function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<readonly DrainOutcome[]> {
  assertStoreKey('watcher', watcher);
  if (acks.length === 0) return [];
  const st = db.statements;
  return inTransaction(db, async (client) => {
    // Locked in target order, the order appends lock cursors in (see appendEvents.ts).
    const cursors = decodeCursorRows(db, 'drain', await run(client, st.drainCursors, [watcher, acks.map((ack) => ack.target)]));
    const plan = planDrain({ watcher, acks, cursors, now });
    await writeCursorPlan(db, client, plan);
    return plan.outcomes;
  });
}
