// Explicit or ambient watch: lock and read the pair's cursor and the target's head, plan (`planWatch`),
// write the new cursor and its `watch_started` entry, or an ambient cursor's promotion.
import { decodeStoredCursor } from '@session-state/adapters-sql-common';
import { assertStoreKey, planWatch, ZERO, type WatchRequest } from '@session-state/domain';

import { cursorParams } from '../statements.js';
import { writeJournal } from './journal.js';
import { readHead, withLogMaterial } from './logMaterial.js';
import type { StoreDb } from '../db/storeDb.js';

/** Creates the pair's cursor at the target's current head (0 when it has none) unless one exists (an explicit watch promotes an ambient one); `created` says which. */
export function watch(db: StoreDb, request: WatchRequest): { created: boolean } {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return db.client
    .transaction((): { created: boolean } => {
      const values = st.cursorOf.get({ watcher: request.watcher, target: request.target });
      const existing = values === undefined ? undefined : decodeStoredCursor(db, 'watch', values);
      // A corrupt row is reported and left as it is: the pair has a cursor, if an unreadable one.
      if (values !== undefined && existing === undefined) return { created: false };
      // A promotion journals the watermarks the notify marks give (logMaterial.ts).
      const plan = planWatch({ request, existing: existing && withLogMaterial(db, [existing])[0], head: readHead(db, request.target)?.head ?? ZERO });
      for (const row of plan.cursorWrites) st.upsertCursor.run(cursorParams(row));
      writeJournal(db, plan.journal);
      return { created: plan.created };
    })
    .immediate();
}
