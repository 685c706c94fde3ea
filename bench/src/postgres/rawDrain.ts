// The raw drain on PostgreSQL, in the store's shape: lock the watcher's cursors on the targets,
// acknowledge each notice (a cursor that moved on reopens at its material), one UPDATE.
import type pg from 'pg';

import type { CursorValues } from './rawAppend.js';
import { RAW_PG, rawTransaction, runRaw } from './rawPg.js';

/** Drains `watcher`'s notices on `targets`; resolves with how many cursors had one. */
export function rawPgDrain(pool: pg.Pool, watcher: string, targets: readonly string[], now: number): Promise<number> {
  return rawTransaction(pool, async (client) => {
    const pending = ((await runRaw(client, RAW_PG.drainCursors, [watcher, targets])) as CursorValues[]).filter(([, , acked, , material]) => material > acked);
    if (pending.length > 0) {
      const col = (i: number) => pending.map((c) => c[i]);
      await runRaw(client, RAW_PG.moveCursorPairs, [now, col(0), col(1), col(3), col(4), col(4),
        col(0), col(1), pending.map((c) => (c[4] > c[3] ? 'notice_reopened' : 'notice_acknowledged')), col(3), col(4), col(4)]);
    }
    return pending.length;
  });
}
