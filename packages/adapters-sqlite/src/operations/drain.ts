// Drain: lock and read the acked cursors, plan (`planDrain`, compare-and-swap per ack), write rows and journal in one transaction.
import { decodeStoredCursor } from '@session-state/adapters-sql-common';
import { assertStoreKey, isolatedOutcome, planDrain, splitBatch, type AppendBatch, type AppendOutcome, type CursorRow, type DrainAck, type DrainOutcome, type SessionKey } from '@session-state/domain';

import { appendEvents } from './append.js';
import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from '../db/storeDb.js';

/** All or nothing: any failure rolls back every ack and throws. */
export function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): readonly DrainOutcome[] {
  assertStoreKey('watcher', watcher);
  return db.client
    .transaction((): readonly DrainOutcome[] => {
      const cursors: CursorRow[] = [];
      for (const target of new Set(acks.map((ack) => ack.target))) {
        const values = db.statements.cursorOf.get({ watcher, target });
        const row = values === undefined ? undefined : decodeStoredCursor(db, 'drain', values);
        if (row !== undefined) cursors.push(row);
      }
      const plan = planDrain({ watcher, acks, cursors: withLogMaterial(db, cursors), now });
      writeCursorPlan(db, plan);
      return plan.outcomes;
    })
    .immediate();
}

/** `appendEvents` of the batch's appends, after its heading drain's own transaction (which fails alone). */
export function appendBatch(db: StoreDb, batch: AppendBatch): AppendOutcome[] | Promise<AppendOutcome[]> {
  const { drain: head, appends } = splitBatch(batch);
  const drained = head === undefined ? [] : [isolatedOutcome('drain', () => ({ type: 'drained', outcomes: drain(db, head.watcher, head.acks, head.now) }))];
  const appended = appendEvents(db, appends);
  return appended instanceof Promise ? appended.then((outcomes) => [...drained, ...outcomes]) : [...drained, ...appended];
}
