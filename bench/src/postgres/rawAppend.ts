// The raw single append on PostgreSQL: BEGIN, the store's event insert (sequence drawn under the
// head-row lock), its locked read of the target's cursors, one UPDATE for the cursors that move,
// pg_notify when a cursor becomes pending (payload: the target and those watchers, as the store's
// signal.ts writes it; a repeat on a pending cursor notifies nothing), COMMIT – the statements the
// store runs for one `record`.
import type pg from 'pg';

import type { RawRecord } from '../raw/append.js';
import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** A cursor as the locked read returns it: [watcher, target, acked, notified, material, touchedAt]. */
type CursorValues = [string, string, number, number, number, number];

/** Returns a function appending one record per call (one transaction each); it resolves with the sequence. */
export function rawPgAppender(pool: pg.Pool, channel: string): (record: RawRecord, now: number) => Promise<number> {
  return (record, now) =>
    rawTransaction(pool, async (client) => {
      const [inserted] = await runRaw(client, RAW_PG.appendEvent, [
        record.sessionKey,
        record.sessionKey,
        record.kind,
        record.actorType,
        record.actorSessionKey ?? null,
        record.summary,
        record.payload === undefined ? null : JSON.stringify(record.payload),
        null,
        new Date(now).toISOString(),
        now,
      ]);
      const sequence = inserted?.[0] as number;
      const onTarget = (await runRaw(client, RAW_PG.cursorsOnTarget, [record.sessionKey])) as CursorValues[];
      const watchers: string[] = [];
      const acked: number[] = [];
      const notified: number[] = [];
      const material: number[] = [];
      const raised: [string, number][] = [];
      for (const [watcher, , a, n, m] of onTarget) {
        if (!record.notifies || watcher === record.actorSessionKey) continue;
        if (m <= a) {
          // idle: the first foreign change opens one notice
          if (sequence <= a) continue;
          watchers.push(watcher);
          acked.push(a);
          notified.push(sequence);
          material.push(sequence);
          raised.push([watcher, a]);
        } else {
          // pending: the notice repeats; only material moves
          if (sequence <= m) continue;
          watchers.push(watcher);
          acked.push(a);
          notified.push(n);
          material.push(sequence);
        }
      }
      if (watchers.length > 0) {
        // With the notice_raised entries of the idle cursors the event notifies, as the store journals them.
        await runRaw(client, RAW_PG.moveCursors, [
          now,
          watchers,
          acked,
          notified,
          material,
          record.sessionKey,
          raised.map(([w]) => w),
          raised.map(() => record.sessionKey),
          raised.map(() => 'notice_raised'),
          raised.map(([, a]) => a),
          raised.map(() => sequence),
          raised.map(() => sequence),
        ]);
      }
      if (raised.length > 0) await runRaw(client, RAW_PG.notify, [channel, [record.sessionKey, ...raised.map(([w]) => w)].join(' ')]);
      return sequence;
    });
}
