// Lists durable cursors, optionally by watcher and/or target, ordered by watcher then target.
import { decodeStoredCursors, listCursorsQuery } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorRow } from '@session-state/domain';

import { readRows } from './compile.js';
import { withLogMaterial } from './logMaterial.js';
import { tables } from './schema.js';
import type { StoreDb } from './storeDb.js';

export function listCursors(db: StoreDb, filter: CursorFilter = {}): CursorRow[] {
  return withLogMaterial(db, decodeStoredCursors(db, 'listCursors', readRows(db.client, listCursorsQuery(tables, filter))));
}
