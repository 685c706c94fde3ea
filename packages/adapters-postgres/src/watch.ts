// Explicit watch: creates a (watcher, target) cursor at the target's current head, unless the
// pair already has one.
import { assertStoreKey, asSequence, evolveCursor, toWatermarks, type WatchRequest } from '@session-state/domain';

import type { StoreDb } from './storeDb';
import { inTransaction, NO_COMMIT_CHECK, run } from './transaction';

/**
 * Creates the pair's cursor at the target's head (0 when it has none) unless one exists. The
 * head row is locked first, so an append to the target in another gateway either lands before
 * (the cursor starts at its event) or after (it moves the new cursor), never in between.
 */
export async function watch(db: StoreDb, request: WatchRequest): Promise<{ created: boolean }> {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  const st = db.statements;
  return inTransaction(db, async (client) => {
    if ((await run(client, st.cursorOf, [request.watcher, request.target])).length > 0) return { created: false };
    const [locked] = await run(client, st.lockHead, [request.target]);
    const head = asSequence((locked?.[0] as number | undefined) ?? 0);
    const seeded = evolveCursor(request.watcher, undefined, { type: 'seed', at: head });
    if (seeded === undefined) return { created: false };
    const w = toWatermarks(seeded.cursor);
    const inserted = await run(client, st.insertCursor, [request.watcher, request.target, w.acked, w.notified, w.material, request.now]);
    return { created: inserted.length > 0 };
  }, NO_COMMIT_CHECK);
}
