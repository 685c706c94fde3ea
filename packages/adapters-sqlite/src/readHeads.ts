// Reads the head rows (state version and prune watermark) of a list of sessions, or all of them.
import { headRowOf } from '@session-state/adapters-sql-common';
import type { HeadRow, SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/**
 * One row per distinct key that has a head, in the order the keys were first given; every head
 * row, ordered by session key, when no keys are given.
 */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) return db.statements.allHeads.all({}).map(headRowOf);
  if (sessionKeys.length === 0) return [];
  // The keys travel as one JSON text; the rows come in key order, a repeated key's row again.
  const rows = db.statements.headsOfKeys.all({ keys: JSON.stringify(sessionKeys) });
  const seen = new Set<unknown>();
  const found: HeadRow[] = [];
  for (const row of rows) {
    if (seen.has(row[0])) continue;
    seen.add(row[0]);
    found.push(headRowOf(row));
  }
  return found;
}
