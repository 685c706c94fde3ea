// The raw prune on PostgreSQL: the store's retention statements (prune.ts), run unbounded in ONE
// transaction – events older than the age limit, the lowest sequences beyond the row cap, the
// prune watermarks raised over what went (heads locked in key order), idle cursors expired and
// their targets signalled – the whole job at once, where the library runs bounded batches.
import type pg from 'pg';

import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** Each session's highest sequence among deleted [sequence, sessionKey] rows. */
function highestPerSession(rows: readonly unknown[][], into: Map<string, number>): void {
  for (const [sequence, sessionKey] of rows as [number, string][]) {
    const before = into.get(sessionKey);
    if (before === undefined || sequence > before) into.set(sessionKey, sequence);
  }
}

/** Prunes `pool`'s schema to `maxRows` / `maxAgeMs` at `now` (signals on `channel`); resolves with the events deleted. */
export async function rawPgPrune(pool: pg.Pool, channel: string, now: number, maxAgeMs: number, maxRows: number): Promise<number> {
  const cutoff = now - maxAgeMs;
  return rawTransaction(pool, async (client) => {
    const highest = new Map<string, number>();
    // A null LIMIT is no limit: everything old goes in this one statement.
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
