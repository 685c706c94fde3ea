// The raw tail poll / page read on PostgreSQL: the store's one-statement read (head ⟕ events,
// `LIMIT limit+1`, the columns `status` returns) on the pool outside a transaction, decoded into
// the `stateChanges` shape (the driver parses the json payload, as it does for the store).
import type pg from 'pg';

import type { RawStatus } from '../raw/readChanges.js';
import { RAW_PG, runRaw } from './rawPg.js';

/** Returns a reader of at most `limit` events after `since` for a session. */
export function rawPgReader(pool: pg.Pool): (sessionKey: string, since: number, limit: number) => Promise<RawStatus> {
  return async (sessionKey, since, limit) => {
    const rows = await runRaw(pool, RAW_PG.sessionChangesSince, [since, sessionKey, limit + 1]);
    const first = rows[0];
    if (first === undefined) return { stateVersion: 0, events: [], historyGap: false, hasMore: false, nextSince: since };
    const events: Record<string, unknown>[] = [];
    for (let i = 0; i < rows.length && i < limit; i++) {
      const r = rows[i];
      if (r === undefined || r[2] === null) break;
      const event: Record<string, unknown> = { sequence: r[2], kind: r[3], actorType: r[4], summary: r[6], occurredAt: r[8] };
      if (r[5] !== null) event['actorSessionKey'] = r[5];
      if (r[7] !== null) event['payload'] = r[7];
      events.push(event);
    }
    const last = events[events.length - 1];
    return {
      stateVersion: first[0] as number,
      events,
      historyGap: since < (first[1] as number),
      hasMore: rows.length > limit,
      nextSince: last === undefined ? since : (last['sequence'] as number),
    };
  };
}
