// Lists durable cursors, optionally by watcher and/or target, ordered by watcher then target.
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { CursorFilter, CursorRow } from '@session-state/domain';

import { decodeCursorRows } from './cursorRow';
import { cursors } from './schema';
import { cursorColumns } from './statements';
import type { StoreDb } from './storeDb';

/** Cursors matching the filter (all when empty), ordered by watcher then target. */
export function listCursors(db: StoreDb, filter: CursorFilter = {}): CursorRow[] {
  const conditions: SQL[] = [];
  if (filter.watcher !== undefined) conditions.push(eq(cursors.watcher, filter.watcher));
  if (filter.target !== undefined) conditions.push(eq(cursors.target, filter.target));
  const rows = db.orm
    .select(cursorColumns)
    .from(cursors)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(cursors.watcher), asc(cursors.target))
    .values();
  return decodeCursorRows(db, 'listCursors', rows);
}
