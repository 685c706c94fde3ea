// Lists durable cursors, optionally by watcher and/or target, ordered by watcher then target.
import { decodeStoredCursors, listCursorsQuery } from '@session-state/adapters-sql-common';
import type { CursorFilter, CursorRow } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';
import { readAlone } from './transaction.js';

export async function listCursors(db: StoreDb, filter: CursorFilter = {}): Promise<CursorRow[]> {
  return decodeStoredCursors(db, 'listCursors', await readAlone(db, listCursorsQuery(db.tables, filter)));
}
