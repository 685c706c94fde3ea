// Drain: acknowledges the notices a watcher's turn consumed, all in one write transaction: lock
// and read the acked cursors, plan (`planDrain`, the compare-and-swap per ack), write the moved
// rows and their journal entries.
import { assertStoreKey, planDrain, type CursorRow, type DrainAck, type DrainOutcome, type SessionKey } from '@session-state/domain';

import { writeJournal } from './cursorJournal';
import { decodeCursorValues } from './cursorRow';
import type { StoreDb } from './storeDb';

/** All or nothing: any failure rolls back every ack and throws. */
export function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): readonly DrainOutcome[] {
  assertStoreKey('watcher', watcher);
  const st = db.statements;
  return db.client
    .transaction((): readonly DrainOutcome[] => {
      const cursors: CursorRow[] = [];
      for (const target of new Set(acks.map((ack) => ack.target))) {
        const values = st.cursorOf.get(watcher, target) as unknown[] | undefined;
        const row = values === undefined ? undefined : decodeCursorValues(db, 'drain', values);
        if (row !== undefined) cursors.push(row);
      }
      const plan = planDrain({ watcher, acks, cursors, now });
      for (const row of plan.cursorWrites) st.updateCursor.run(row.acked, row.notified, row.material, row.touchedAt, row.watcher, row.target);
      writeJournal(db, plan.journal);
      return plan.outcomes;
    })
    .immediate();
}
