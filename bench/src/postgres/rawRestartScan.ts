// The raw restart scan on PostgreSQL, in the store's shape: read every lagging cursor
// without locks, then in one transaction lock the ones whose notified is below material and raise
// them all in one UPDATE over unnest'ed pairs, as the store does.
import type pg from 'pg';

import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

type CursorValues = [string, string, number, number, number, number];

/** Runs the scan at `now`; returns how many pairs are re-noticed. */
export async function rawPgRestartScan(pool: pg.Pool, now: number): Promise<number> {
  const lagging = (await runRaw(pool, RAW_PG.laggingCursors, [])) as CursorValues[];
  const toWrite = lagging.filter(([, , , notified, material]) => notified !== material);
  if (toWrite.length > 0) {
    await rawTransaction(pool, async (client) => {
      const locked = (await runRaw(client, RAW_PG.lockCursorPairs, [toWrite.map((c) => c[0]), toWrite.map((c) => c[1])])) as CursorValues[];
      const moved = locked.filter(([, , acked, notified, material]) => notified !== material && material > acked);
      if (moved.length > 0) {
        await runRaw(client, RAW_PG.moveCursorPairs, [
          now,
          moved.map((c) => c[0]),
          moved.map((c) => c[1]),
          moved.map((c) => c[2]),
          moved.map((c) => c[4]),
          moved.map((c) => c[4]),
          // The notice_recovered entries, as the store journals them.
          moved.map((c) => c[0]),
          moved.map((c) => c[1]),
          moved.map(() => 'notice_recovered'),
          moved.map((c) => c[2]),
          moved.map((c) => c[4]),
          moved.map((c) => c[4]),
        ]);
      }
    });
  }
  return lagging.length;
}
