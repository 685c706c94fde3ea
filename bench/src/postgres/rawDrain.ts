// The raw drain on PostgreSQL, in the store's shape (drain.ts): in one transaction, lock the
// watcher's cursors on the drained targets, acknowledge each one's notice (acked = notified; a
// cursor that moved on since reopens at its material) and write them back in one UPDATE.
import type pg from 'pg';

import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

type CursorValues = [string, string, number, number, number, number];

/** Drains `watcher`'s notices on `targets` at `now`; resolves with how many cursors had one. */
export async function rawPgDrain(pool: pg.Pool, watcher: string, targets: readonly string[], now: number): Promise<number> {
  return rawTransaction(pool, async (client) => {
    const locked = (await runRaw(client, RAW_PG.drainCursors, [watcher, targets])) as CursorValues[];
    const pending = locked.filter(([, , acked, , material]) => material > acked);
    if (pending.length > 0) {
      await runRaw(client, RAW_PG.moveCursorPairs, [
        now,
        pending.map((c) => c[0]),
        pending.map((c) => c[1]),
        pending.map((c) => c[3]),
        pending.map((c) => c[4]),
        pending.map((c) => c[4]),
        // The journal entries: acknowledged (nothing more arrived) or reopened.
        pending.map((c) => c[0]),
        pending.map((c) => c[1]),
        pending.map((c) => (c[4] > c[3] ? 'notice_reopened' : 'notice_acknowledged')),
        pending.map((c) => c[3]),
        pending.map((c) => c[4]),
        pending.map((c) => c[4]),
      ]);
    }
    return pending.length;
  });
}
