// Writes moved cursors back: one statement for any number of (watcher, target) pairs.
import type { CursorRow } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { StoreDb } from './storeDb';
import { run } from './transaction';

/** Sets each row's watermarks, touched at `now`; the rows must be locked by the caller's transaction. */
export async function moveCursorRows(db: StoreDb, client: PoolClient, rows: readonly CursorRow[], now: number): Promise<void> {
  if (rows.length === 0) return;
  await run(client, db.statements.moveCursorPairs, [
    now,
    rows.map((row) => row.watcher),
    rows.map((row) => row.target),
    rows.map((row) => row.acked),
    rows.map((row) => row.notified),
    rows.map((row) => row.material),
  ]);
}
