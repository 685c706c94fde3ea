// `status` and `list`: reads in the lane, so each sees every write called before it. A `status`
// with a `reader` whose page reaches the head acknowledges the reader's cursor.
import { buildStateChanges, MAX_PAGE_LIMIT, ZERO, type Sequence, type SessionKey } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { describeFailure } from '../errors/errors.js';
import { decodeSessionKey, decodeSessionKeys, decodeStatusOptions } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type ReadDeps = Pick<FacadeParts, 'store' | 'counters' | 'failures' | 'order' | 'board' | 'logger'>;

export function createReadMethods({ store, counters, failures, order, board, logger }: ReadDeps): Pick<SessionStateAwareness, 'status' | 'list'> {
  /**
   * The reader's page reached the head at `through`: acknowledge its cursor, withdraw the pair's
   * notice and queue a reopened one. Best-effort: on failure the notice simply stays queued.
   */
  const acknowledgeRead = async (reader: SessionKey, target: SessionKey, since: Sequence, through: Sequence): Promise<void> => {
    const fields = { watcher: reader, target };
    try {
      const outcome = await store.acknowledgeRead({ watcher: reader, target, since, through, now: failures.now('status', fields) });
      if (!outcome.acknowledged) return;
      board.withdraw(reader, target, 'noticesAcknowledgedByRead');
      if (outcome.reopened !== undefined) board.offerOwned(outcome.reopened);
    } catch (error) {
      logger.error({ operation: 'acknowledgeRead', ...fields, error: describeFailure(error) }, 'acknowledging a reader’s status read failed; its notice stays queued');
    }
  };

  return {
    async status(sessionKey, statusOptions) {
      failures.ensureOpen('status');
      const key = decodeSessionKey(sessionKey, 'status.sessionKey');
      const { changesSince, limit, reader } = decodeStatusOptions(statusOptions);
      const fields = { sessionKey: key };
      return order.enter(async () => {
        if (changesSince === undefined) {
          const [row] = await failures.storeCall('status', () => store.readHeads([key]), fields);
          return { sessionKey: key, stateVersion: row?.head ?? ZERO };
        }
        const page = await failures.storeCall('status', () => store.readChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT), fields);
        const stateChanges = buildStateChanges(page, changesSince);
        if (stateChanges.historyGap) counters.add('gapsServed');
        // In the same lane turn as the read: no append of this process lands in between.
        if (reader !== undefined && !page.hasMore) await acknowledgeRead(reader, key, changesSince, page.head.head);
        return { sessionKey: key, stateVersion: page.head.head, stateChanges };
      });
    },

    async list(sessionKeys) {
      failures.ensureOpen('list');
      const keys = decodeSessionKeys(sessionKeys);
      const rows = await order.enter(() => failures.storeCall('list', () => store.readHeads(keys)));
      const heads = new Map(rows.map((row) => [row.sessionKey as string, row.head]));
      return keys.map((key) => {
        const version = heads.get(key) ?? 0;
        return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
      });
    },
  };
}
