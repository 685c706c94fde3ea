// The raw single append: one BEGIN IMMEDIATE transaction that reads the target's cursors, inserts
// the event, raises the head and moves the cursors, journalling a raised notice, as the store does.
import type { RawDb, RawStatements } from './rawDb.js';

/** What the bench records; `notifies` says whether the kind moves watchers' cursors. */
export interface RawRecord {
  readonly sessionKey: string;
  readonly kind: string;
  readonly actorType: string;
  readonly actorSessionKey?: string;
  readonly summary: string;
  readonly payload?: Readonly<Record<string, unknown>>;
  readonly notifies: boolean;
}

/** One record per call, one transaction each; returns the sequence. */
export function rawAppender(db: RawDb): (record: RawRecord, now: number) => number {
  const tx = db.client.transaction(appendIn(db.st));
  return (record, now) => tx.immediate(record, now);
}

/** The statements of one append, inside the caller's transaction. */
export function appendIn(st: RawStatements): (record: RawRecord, now: number) => number {
  return (record, now) => {
    const onTarget = st.cursorsOnTarget.all(record.sessionKey);
    const payload = record.payload === undefined ? null : JSON.stringify(record.payload);
    const result = st.insertEvent.run(record.sessionKey, record.kind, record.actorType, record.actorSessionKey ?? null, record.summary, payload, null, new Date(now).toISOString(), now);
    const sequence = Number(result.lastInsertRowid);
    st.raiseHead.run(record.sessionKey, sequence);
    for (const c of onTarget) {
      if (!record.notifies || c.watcher === record.actorSessionKey) continue;
      if (c.material <= c.acked) {
        if (sequence <= c.acked) continue;
        st.updateCursor.run(c.acked, sequence, sequence, now, c.watcher, c.target);
        st.insertJournal.run(c.watcher, c.target, 'notice_raised', null, null, c.acked, sequence, sequence, now);
      } else if (sequence > c.material) {
        st.updateCursor.run(c.acked, c.notified, sequence, now, c.watcher, c.target);
      }
    }
    return sequence;
  };
}
