// Lists durable cursors, optionally by watcher and/or target, ordered by watcher then target.
import { decodeStoredCursors, listCursorsQuery } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorRow } from '@session-state/domain';

import { readRows } from './compile';
import { withLogMaterial } from './logMaterial';
import { tables } from './schema';
import type { StoreDb } from './storeDb';

export function listCursors(db: StoreDb, filter: CursorFilter = {}): CursorRow[] {
  return withLogMaterial(db, decodeStoredCursors(db, 'listCursors', readRows(db.client, listCursorsQuery(tables, filter))));
}
