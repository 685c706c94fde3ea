// Reads the head rows (state version and prune watermark) of a list of sessions, or all of them.
import { headRowOf } from '@session-state/adapters-sql-common';
import type { HeadRow, SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';

/**
 * One row per distinct key that has a head, in the order the keys were first given; every head
 * row, ordered by session key, when no keys are given.
 */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) return db.statements.allHeads.all({}).map(headRowOf);
  if (sessionKeys.length === 0) return [];
  // The keys travel as one JSON text; the rows come in key order, a repeated key's row again.
  const rows = db.statements.headsOfKeys.all({ keys: JSON.stringify(sessionKeys) });
  return firstOfEach(rows);
}

/**
 * The first row of each head, in order. Repeats are told by the head's rowid in a byte per rowid
 * (listing 100,000 sessions: ~30 ms less than a Set of their keys, which hashes every key), unless
 * rowids run far beyond the row count (a file whose heads were deleted and re-made many times).
 */
function firstOfEach(rows: readonly (readonly unknown[])[]): HeadRow[] {
  let maxRowid = 0;
  for (const row of rows) maxRowid = Math.max(maxRowid, row[3] as number);
  const found: HeadRow[] = [];
  if (maxRowid <= 4 * rows.length + 1024) {
    const seen = new Uint8Array(maxRowid + 1);
    for (const row of rows) {
      const rowid = row[3] as number;
      if (seen[rowid] === 1) continue;
      seen[rowid] = 1;
      found.push(headRowOf(row));
    }
    return found;
  }
  const seen = new Set<unknown>();
  for (const row of rows) {
    if (seen.has(row[0])) continue;
    seen.add(row[0]);
    found.push(headRowOf(row));
  }
  return found;
}
