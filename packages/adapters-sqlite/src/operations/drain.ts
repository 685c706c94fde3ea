// Drain: lock and read the acked cursors, plan (`planDrain`, compare-and-swap per ack), write rows and journal in one transaction.
import { decodeStoredCursors, failedOutcome } from '@session-state/adapters-sql-common';
import { assertStoreKey, isolatedOutcome, planDrain, splitBatch, type AppendBatch, type AppendOutcome, type DrainOutcome, type DrainRequest } from '@session-state/domain';

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
      const targets = [...new Set(acks.map((ack) => ack.target))];
      const rows = targets.map((target) => db.statements.cursorOf.get({ watcher, target })).filter((row) => row !== undefined);
      const plan = planDrain({ ...request, cursors: withLogMaterial(db, decodeStoredCursors(db, 'drain', rows)) });
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
