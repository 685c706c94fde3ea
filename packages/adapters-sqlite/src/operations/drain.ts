// Drain: lock and read the acked cursors, plan (`planDrain`, compare-and-swap per ack), write rows and journal in one transaction.
import { decodeStoredCursor, failedOutcome } from '@session-state/adapters-sql-common';
import { assertStoreKey, isolatedOutcome, planDrain, splitBatch, type AppendBatch, type AppendOutcome, type CursorRow, type DrainOutcome, type DrainRequest } from '@session-state/domain';

import { appendEvents } from './append.js';
import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from '../db/storeDb.js';

/** All or nothing: any failure rolls back every ack and throws. */
export function drain(db: StoreDb, request: DrainRequest): readonly DrainOutcome[] {
  const { watcher, acks } = request;
  assertStoreKey('watcher', watcher);
  return db.client
    .transaction((): readonly DrainOutcome[] => {
      const cursors: CursorRow[] = [];
      for (const target of new Set(acks.map((ack) => ack.target))) {
        const values = db.statements.cursorOf.get({ watcher, target });
        const row = values === undefined ? undefined : decodeStoredCursor(db, 'drain', values);
        if (row !== undefined) cursors.push(row);
      }
      const plan = planDrain({ ...request, cursors: withLogMaterial(db, cursors) });
      writeCursorPlan(db, plan);
      return plan.outcomes;
    })
    .immediate();
}

/** `appendEvents` of the batch's appends, after its heading drain's own transaction (which fails alone, as the appends fail apart from it). */
export function appendBatch(db: StoreDb, batch: AppendBatch): AppendOutcome[] {
  const { drain: head, appends } = splitBatch(batch);
  if (head === undefined) return appendEvents(db, appends);
  const drained = isolatedOutcome('drain', () => ({ type: 'drained', outcomes: drain(db, head) }));
  try {
    return [drained, ...appendEvents(db, appends)];
  } catch (e) {
    return [drained, ...appends.map(() => failedOutcome(e))];
  }
}
