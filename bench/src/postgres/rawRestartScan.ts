// The raw restart scan on PostgreSQL, in the store's shape: read the pending cursors unlocked,
// then in one transaction lock those whose notified is below material and raise them in one UPDATE.
import type pg from 'pg';

import type { CursorValues } from './rawAppend.js';
import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** Runs the scan at `now`; resolves with how many pairs are pending. */
export async function rawPgRestartScan(pool: pg.Pool, now: number): Promise<number> {
  const pending = (await runRaw(pool, RAW_PG.pendingCursors, [])) as CursorValues[];
  const toWrite = pending.filter(([, , , notified, material]) => notified !== material);
  if (toWrite.length === 0) return pending.length;
  await rawTransaction(pool, async (client) => {
    const locked = (await runRaw(client, RAW_PG.lockCursorPairs, [toWrite.map((c) => c[0]), toWrite.map((c) => c[1])])) as CursorValues[];
    const moved = locked.filter(([, , acked, notified, material]) => notified !== material && material > acked);
    if (moved.length === 0) return;
    const col = (i: number) => moved.map((c) => c[i]);
    await runRaw(client, RAW_PG.moveCursorPairs, [now, col(0), col(1), col(2), col(4), col(4), col(0), col(1), moved.map(() => 'notice_recovered'), col(2), col(4), col(4)]);
  });
  return pending.length;
}
