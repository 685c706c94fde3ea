// Drain: acknowledges the notices a watcher's turn consumed, all in one transaction, each
// cursor stepped by the domain's `evolveCursor(drain)` compare-and-swap.
import {
  assertStoreKey,
  evolveCursor,
  fromWatermarks,
  noticeFor,
  toWatermarks,
  type DrainAck,
  type DrainOutcome,
  type SessionKey,
} from '@session-state/domain';

import { decodeCursorValues } from './cursorRow';
import type { StoreDb } from './storeDb';

/** All or nothing: any failure rolls back every ack and throws. */
export function drain(db: StoreDb, watcher: SessionKey, acks: readonly DrainAck[], now: number): DrainOutcome[] {
  assertStoreKey('watcher', watcher);
  const st = db.statements;
  return db.orm.transaction(
    () =>
      acks.map((ack): DrainOutcome => {
        const values = st.cursorOf.get(watcher, ack.target) as unknown[] | undefined;
        if (values === undefined) return { target: ack.target, result: 'stale' };
        const row = decodeCursorValues(db, 'drain', values);
        if (row === undefined) return { target: ack.target, result: 'stale' };
        const step = evolveCursor(watcher, fromWatermarks(row), { type: 'drain', notified: ack.notified });
        if (step === undefined) return { target: ack.target, result: 'stale' };
        if (step.changed) {
          const w = toWatermarks(step.cursor);
          st.updateCursor.run(w.acked, w.notified, w.material, now, watcher, ack.target);
        }
        const notice = noticeFor(watcher, ack.target, step);
        if (step.drain === 'acked') {
          return { target: ack.target, result: 'acked', acked: step.cursor.acked, ...(notice !== undefined ? { reopened: notice } : {}) };
        }
        return { target: ack.target, result: 'stale', ...(notice !== undefined ? { pending: notice } : {}) };
      }),
    { behavior: 'immediate' },
  );
}
