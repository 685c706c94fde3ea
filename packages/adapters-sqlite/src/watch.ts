// Explicit watch: creates a (watcher, target) cursor at the target's current head, unless the
// pair already has one.
import { assertStoreKey, asSequence, evolveCursor, toWatermarks, type WatchRequest } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/** Creates the pair's cursor at the target's current head (0 when it has none) unless one exists; `created` says which. */
export function watch(db: StoreDb, request: WatchRequest): { created: boolean } {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return db.orm.transaction(
    () => {
      if (st.cursorOf.get(request.watcher, request.target) !== undefined) return { created: false };
      const head = asSequence(((st.headOf.get(request.target) as unknown[] | undefined)?.[0] as number | undefined) ?? 0);
      const seeded = evolveCursor(request.watcher, undefined, { type: 'seed', at: head });
      if (seeded === undefined) return { created: false };
      const w = toWatermarks(seeded.cursor);
      st.upsertCursor.run(request.watcher, request.target, w.acked, w.notified, w.material, request.now);
      return { created: true };
    },
    { behavior: 'immediate' },
  );
}
