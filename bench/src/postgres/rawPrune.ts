// The raw prune on PostgreSQL: the store's retention statements unbounded in ONE transaction, where
// the library runs bounded batches.
import type pg from 'pg';

import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** Each session's highest sequence among deleted [sequence, sessionKey] rows. */
function highestPerSession(rows: readonly unknown[][], into: Map<string, number>): void {
  for (const [sequence, sessionKey] of rows as [number, string][]) into.set(sessionKey, Math.max(sequence, into.get(sessionKey) ?? 0));
}

/** Prunes to `maxRows` / `maxAgeMs` at `now`, signalling on `channel`; resolves with the events deleted. */
export function rawPgPrune(pool: pg.Pool, channel: string, now: number, maxAgeMs: number, maxRows: number): Promise<number> {
  const cutoff = now - maxAgeMs;
  return rawTransaction(pool, async (client) => {
    const highest = new Map<string, number>();
    const aged = await runRaw(client, RAW_PG.deleteAgedEvents, [cutoff, null]);
    highestPerSession(aged, highest);
    const [counted] = await runRaw(client, RAW_PG.countEvents, []);
    const excess = Number(counted?.[0] ?? 0) - maxRows;
    const lowest = excess > 0 ? await runRaw(client, RAW_PG.deleteLowestEvents, [excess]) : [];
    highestPerSession(lowest, highest);
    if (highest.size > 0) {
      const keys = [...highest.keys()].sort();
      await runRaw(client, RAW_PG.lockHeads, [keys]);
      await runRaw(client, RAW_PG.raisePruneWatermarks, [keys, keys.map((key) => highest.get(key) as number)]);
    }
    const expired = await runRaw(client, RAW_PG.expireIdleCursors, [cutoff, null]);
    if (expired.length > 0) {
      await runRaw(client, RAW_PG.journalExpired, [now, ...[0, 1, 2, 3, 4].map((i) => expired.map((row) => row[i]))]);
      await runRaw(client, RAW_PG.notifyTargets, [channel, expired.map((pair) => pair[1])]);
    }
    await runRaw(client, RAW_PG.deleteAgedJournal, [cutoff]);
    return aged.length + lowest.length;
  });
}
