// Explicit watch: lock and read the pair's cursor and the target's head, plan (`planWatch`),
// write the new cursor and its `watch_started` entry.
import { assertStoreKey, planWatch, ZERO, type WatchRequest } from '@session-state/domain';

import { writeJournal } from './cursorJournal';
import { decodeCursorValues } from './cursorRow';
import { readHead } from './headRow';
import type { StoreDb } from './storeDb';

/** Creates the pair's cursor at the target's current head (0 when it has none) unless one exists; `created` says which. */
export function watch(db: StoreDb, request: WatchRequest): { created: boolean } {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return db.client
    .transaction((): { created: boolean } => {
      const values = st.cursorOf.get(request.watcher, request.target) as unknown[] | undefined;
      const existing = values === undefined ? undefined : decodeCursorValues(db, 'watch', values);
      // A corrupt row is reported and left as it is: the pair has a cursor, if an unreadable one.
      if (values !== undefined && existing === undefined) return { created: false };
      const plan = planWatch({ request, existing, head: readHead(db, request.target)?.head ?? ZERO });
      for (const row of plan.cursorWrites) st.upsertCursor.run(row.watcher, row.target, row.acked, row.notified, row.material, row.touchedAt);
      writeJournal(db, plan.journal);
      return { created: plan.created };
    })
    .immediate();
}
