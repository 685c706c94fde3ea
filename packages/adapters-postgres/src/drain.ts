// Drain: acknowledges the notices a watcher's turn consumed, all in one transaction, each
// cursor stepped by the domain's `evolveCursor(drain)` compare-and-swap under its row lock.
import {
  assertStoreKey,
  evolveCursor,
  fromWatermarks,
  noticeFor,
  toWatermarks,
  type CursorRow,
  type DrainAck,
  type DrainOutcome,
  type SessionKey,
} from '@session-state/domain';

import { decodeCursorRows } from './cursorRow';
import { moveCursorRows } from './moveCursorRows';
import type { StoreDb } from './storeDb';
import { inTransaction, run } from './transaction';

/** All or nothing: any failure rolls back every ack and rejects. */
export async function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): Promise<DrainOutcome[]> {
  assertStoreKey('watcher', watcher);
  if (acks.length === 0) return [];
  const st = db.statements;
  return inTransaction(db, async (client) => {
    // Locked in target order, the order appends lock cursors in (see appendEvents.ts).
    const rows = decodeCursorRows(db, 'drain', await run(client, st.drainCursors, [watcher, acks.map((ack) => ack.target)]));
    const byTarget = new Map<string, CursorRow>(rows.map((row) => [row.target, row]));
    const outcomes: DrainOutcome[] = [];
    const moved = new Map<string, CursorRow>();
    for (const ack of acks) {
      const row = byTarget.get(ack.target);
      const step = row === undefined ? undefined : evolveCursor(watcher, fromWatermarks(row), { type: 'drain', notified: ack.notified });
      if (step === undefined) {
        outcomes.push({ target: ack.target, result: 'stale' });
        continue;
      }
      if (step.changed) {
        const next = { ...(row as CursorRow), ...toWatermarks(step.cursor), touchedAt: now };
        byTarget.set(ack.target, next);
        moved.set(ack.target, next);
      }
      const notice = noticeFor(watcher, ack.target, step);
      if (step.drain === 'acked') {
        outcomes.push({ target: ack.target, result: 'acked', acked: step.cursor.acked, ...(notice !== undefined ? { reopened: notice } : {}) });
      } else {
        outcomes.push({ target: ack.target, result: 'stale', ...(notice !== undefined ? { pending: notice } : {}) });
      }
    }
    // Every moved cursor in one statement (its last state, when a target was acked twice).
    await moveCursorRows(db, client, [...moved.values()], now);
    return outcomes;
  });
}
