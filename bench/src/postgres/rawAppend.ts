// The raw single append on PostgreSQL, the store's statements for one `record`: BEGIN, the event
// insert, the locked read of the target's cursors, one UPDATE of those that move (with the
// journal entries of raised notices), pg_notify when a cursor becomes pending, COMMIT.
import type pg from 'pg';

import type { RawRecord } from '../raw/append.js';
import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** [watcher, target, acked, notified, material, touchedAt]. */
export type CursorValues = [string, string, number, number, number, number];

export function rawPgAppender(pool: pg.Pool, channel: string): (record: RawRecord, now: number) => Promise<number> {
  return (record, now) =>
    rawTransaction(pool, async (client) => {
      const payload = record.payload === undefined ? null : JSON.stringify(record.payload);
      const [inserted] = await runRaw(client, RAW_PG.appendEvent, [record.sessionKey, record.sessionKey, record.kind, record.actorType, record.actorSessionKey ?? null, record.summary, payload, null, new Date(now).toISOString(), now]);
      const sequence = inserted?.[0] as number;
      const moved: [string, number, number][] = [];
      const raised: [string, number][] = [];
      for (const [watcher, , a, n, m] of (await runRaw(client, RAW_PG.cursorsOnTarget, [record.sessionKey])) as CursorValues[]) {
        if (!record.notifies || watcher === record.actorSessionKey) continue;
        if (m <= a && sequence > a) {
          moved.push([watcher, a, sequence]);
          raised.push([watcher, a]);
        } else if (m > a && sequence > m) moved.push([watcher, a, n]);
      }
      if (moved.length > 0) {
        const key = record.sessionKey;
        await runRaw(client, RAW_PG.moveCursors, [now, moved.map((c) => c[0]), moved.map((c) => c[1]), moved.map((c) => c[2]), moved.map(() => sequence), key,
          raised.map(([w]) => w), raised.map(() => key), raised.map(() => 'notice_raised'), raised.map(([, a]) => a), raised.map(() => sequence), raised.map(() => sequence)]);
      }
      if (raised.length > 0) await runRaw(client, RAW_PG.notify, [channel, [record.sessionKey, ...raised.map(([w]) => w)].join(' ')]);
      return sequence;
    });
}
