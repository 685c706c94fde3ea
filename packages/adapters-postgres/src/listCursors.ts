// Lists durable cursors, optionally by watcher and/or target, ordered by watcher then target.
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { CursorFilter, CursorRow } from '@session-state/domain';

import { decodeCursorRows } from './cursorRow';
import { cursorColumnsOf } from './statements';
import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

/** Cursors matching the filter (all when empty), ordered by watcher then target. */
export async function listCursors(db: StoreDb, filter: CursorFilter = {}): Promise<CursorRow[]> {
  const { cursors } = db.tables;
  const conditions: SQL[] = [];
  if (filter.watcher !== undefined) conditions.push(eq(cursors.watcher, filter.watcher));
  if (filter.target !== undefined) conditions.push(eq(cursors.target, filter.target));
  const query = db.orm
    .select(cursorColumnsOf(db.tables))
    .from(cursors)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(cursors.watcher), asc(cursors.target))
    .toSQL();
  const rows = await runAlone(db, { text: query.sql }, query.params);
  return decodeCursorRows(db, 'listCursors', rows);
}
