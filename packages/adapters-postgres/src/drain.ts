// Drain: acknowledges the notices a watcher's turn consumed, all in one transaction: lock and
// read the acked cursors, plan (`planDrain`, the compare-and-swap per ack), write the moved rows
// and their journal entries.
import { decodeStoredCursors } from '@session-state/adapters-sql-common';
import { assertStoreKey, planDrain, type DrainAck, type DrainOutcome, type SessionKey } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { writeCursorPlan } from './cursorJournal.js';
import type { StoreDb } from './storeDb.js';
import { inTransaction, run } from './transaction.js';

/** All or nothing: any failure rolls back every ack and rejects. */
export async function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<readonly DrainOutcome[]> {
  assertStoreKey('watcher', watcher);
  if (acks.length === 0) return [];
  return inTransaction(db, (client) => drainIn(db, client, watcher, acks, now));
}

/** The drain's statements, inside the caller's transaction (drain, drainThenAppend). */
export async function drainIn(db: StoreDb, client: PoolClient, watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<readonly DrainOutcome[]> {
  return drainLocked(db, client, watcher, acks, now, await lockDrainCursors(db, client, watcher, acks));
}

/** The drain's first statement: the acked cursors, locked in target order (the order appends lock cursors in, see appendEvents.ts). */
export function lockDrainCursors(db: StoreDb, client: PoolClient, watcher: SessionKey, acks: readonly DrainAck[]): Promise<unknown[][]> {
  return run(client, db.statements.drainCursors, { watcher, targets: acks.map((ack) => ack.target) });
}

/** The rest of the drain, on the rows `lockDrainCursors` returned: plan, then write the moved rows and their journal entries. */
export async function drainLocked(db: StoreDb, client: PoolClient, watcher: SessionKey, acks: readonly DrainAck[], now: number, locked: unknown[][]): Promise<readonly DrainOutcome[]> {
  const plan = planDrain({ watcher, acks, cursors: decodeStoredCursors(db, 'drain', locked), now });
  await writeCursorPlan(db, client, plan);
  return plan.outcomes;
}
