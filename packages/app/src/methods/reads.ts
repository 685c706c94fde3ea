// `status` and `list`: reads in the lane, so each sees every write called before it. A `status`
// with a `reader` whose page reaches the head acknowledges the reader's cursor.
import { buildStateChanges, MAX_PAGE_LIMIT, toSessionEvent, ZERO, type Logger, type Sequence, type SessionEvent, type SessionKey, type SignalLogHead, type StateStore } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { describeFailure } from '../errors/errors.js';
import type { Failures } from '../errors/failures.js';
import { decodeSessionKey, decodeSessionKeys, decodeStatusOptions } from '../input/codecs.js';
import { decodeReadable } from '../input/unreadable.js';
import type { Counters } from '../metrics.js';
import type { NoticeBoard } from '../notices/board.js';
import type { CallOrder } from '../pipeline/lane.js';

/** A changes page with its events in the `stateChanges` shape. */
type SessionPage = { readonly head: SignalLogHead; readonly events: readonly SessionEvent[]; readonly hasMore: boolean };

export interface ReadMethodsDeps {
  readonly store: StateStore;
  readonly counters: Counters;
  readonly failures: Failures;
  readonly order: CallOrder;
  readonly board: NoticeBoard;
  readonly logger: Logger;
}

export function createReadMethods({ store, counters, failures, order, board, logger }: ReadMethodsDeps): Pick<SessionStateAwareness, 'status' | 'list'> {
  /**
   * The reader's page reached the head at `through`: acknowledge its cursor, withdraw the pair's
   * notice and queue a reopened one. Best-effort: on failure the notice simply stays queued.
   */
  const acknowledgeRead = async (reader: SessionKey, target: SessionKey, since: Sequence, through: Sequence): Promise<void> => {
    const fields = { watcher: reader, target };
    try {
      const now = failures.now('status', fields);
      const outcome = await store.acknowledgeRead({ watcher: reader, target, since, through, now });
      if (!outcome.acknowledged) return;
      board.withdraw(reader, target, 'noticesAcknowledgedByRead');
      if (outcome.reopened !== undefined) board.offerOwned(outcome.reopened);
    } catch (error) {
      logger.error({ operation: 'acknowledgeRead', ...fields, error: describeFailure(error) }, 'acknowledging a reader’s status read failed; its notice stays queued');
    }
  };

  const readPage = async (key: SessionKey, since: Sequence, limit: number): Promise<SessionPage> => {
    const page = await store.readChanges(key, since, limit);
    return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
  };

  return {
    async status(sessionKey, statusOptions) {
      failures.ensureOpen('status');
      const key = decodeReadable('status.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'status.sessionKey'));
      const { changesSince, limit, reader } = decodeReadable('status', statusOptions, () => decodeStatusOptions(statusOptions));
      return order.enter(async () => {
        if (changesSince === undefined) {
          try {
            const [row] = await store.readHeads([key]);
            return { sessionKey: key, stateVersion: row?.head ?? ZERO };
          } catch (error) {
            throw failures.store('status', error, { sessionKey: key });
          }
        }
        let page: SessionPage;
        try {
          page = await readPage(key, changesSince, limit ?? MAX_PAGE_LIMIT);
        } catch (error) {
          throw failures.store('status', error, { sessionKey: key });
        }
        const stateChanges = buildStateChanges(page.head, changesSince, page.events, page.hasMore);
        if (stateChanges.historyGap) counters.add('gapsServed');
        // In the same lane turn as the read: no append of this process lands in between.
        if (reader !== undefined && !page.hasMore) await acknowledgeRead(reader, key, changesSince, page.head.head);
        return { sessionKey: key, stateVersion: page.head.head, stateChanges };
      });
    },

    async list(sessionKeys) {
      failures.ensureOpen('list');
      const keys = decodeReadable('list.sessionKeys', sessionKeys, () => decodeSessionKeys(sessionKeys));
      const rows = await order.enter(async () => {
        try {
          return await store.readHeads(keys);
        } catch (error) {
          throw failures.store('list', error);
        }
      });
      const heads = new Map(rows.map((row) => [row.sessionKey as string, row.head]));
      return keys.map((key) => {
        const version = heads.get(key) ?? 0;
        return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
      });
    },
  };
}
