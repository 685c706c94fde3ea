// Explicit watch: creates a (watcher, target) cursor at the target's current head, unless the
// pair already has one.
import { evolveCursor, toWatermarks, ZERO, type WatchRequest } from '@session-state/domain';

import type { StoreDb } from './storeDb';

export function watch(db: StoreDb, request: WatchRequest): { created: boolean } {
  const st = db.statements;
  return db.orm.transaction(
    () => {
      if (st.cursorOf.values({ watcher: request.watcher, target: request.target }).length > 0) return { created: false };
      const head = st.headOf.get({ sessionKey: request.target })?.head ?? ZERO;
      const seeded = evolveCursor(request.watcher, undefined, { type: 'seed', at: head as typeof ZERO });
      if (seeded === undefined) return { created: false };
      st.upsertCursor.run({ watcher: request.watcher, target: request.target, ...toWatermarks(seeded.cursor), touchedAt: request.now });
      return { created: true };
    },
    { behavior: 'immediate' },
  );
}
