// The pending cursors (material > acked) on some targets, by the cursors_target index, in `IN (…)`
// chunks below SQLite's bound-parameter limit (all of them: the shared `pendingCursors`
// statement, which reads only the covering partial index cursors_lagging).
import { columnsOf, PENDING_FIELDS } from '@session-state/adapters-sql-common';
import type { SessionKey } from '@session-state/domain';

import { readRows } from './compile.js';
import { cursors } from './schema.js';
import type { StoreDb } from './storeDb.js';
import { orm } from './drizzle.js';

const { and, gt, inArray } = orm;

/** At most this many targets go into one `IN (…)` list, well below SQLite's bound-parameter limit. */
export const TARGETS_PER_QUERY = 500;

/** The pending cursors on these targets (at most TARGETS_PER_QUERY), unordered, as PENDING_FIELDS rows. */
export function pendingCursorsOn(orm: Pick<StoreDb['orm'], 'select'>, targets: readonly string[]) {
  return orm
    .select(columnsOf(cursors, PENDING_FIELDS))
    .from(cursors)
    .where(and(inArray(cursors.target, [...targets]), gt(cursors.material, cursors.acked)));
}

/** The pending rows on `targets` (each target read once, in chunks), unordered: the planners order them. */
export function pendingRowsOn(db: StoreDb, targets: readonly SessionKey[]): unknown[][] {
  const unique = [...new Set(targets)];
  const rows: unknown[][] = [];
  for (let start = 0; start < unique.length; start += TARGETS_PER_QUERY) {
    rows.push(...readRows(db.client, pendingCursorsOn(db.orm, unique.slice(start, start + TARGETS_PER_QUERY))));
  }
  return rows;
}
