// `status`, `list` and `watched`: reads in the lane, so each sees every write called before it. A
// `status` with a `reader` whose page reaches the head acknowledges the reader's cursor.
import { buildStateChanges, MAX_PAGE_LIMIT, ZERO, type Sequence, type SessionKey } from '@session-state/domain';

import type { SessionListRow, SessionStateAwareness, WatchedSession } from '../api.js';
import { describeFailure } from '../errors/errors.js';
import { decodeOptional, decodeSessionKey, decodeSessionKeys, StatusOptions } from '../input/codecs.js';
import type { FacadeParts } from '../parts.js';

type ReadDeps = Pick<FacadeParts, 'store' | 'counters' | 'failures' | 'order' | 'board' | 'logger'>;

export function createReadMethods({ store, counters, failures, order, board, logger }: ReadDeps): Pick<SessionStateAwareness, 'status' | 'list' | 'watched'> {
  /** The reader's page reached the head at `through`: acknowledge its cursor, withdraw its notice, queue a reopened one; a failure leaves it queued. */
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

  /** One `list` row per key, in order, from one heads read. */
  const listRows = async (operation: string, keys: readonly SessionKey[]): Promise<SessionListRow[]> => {
    const rows = await failures.storeCall(operation, () => store.readHeads(keys));
    const heads = new Map<string, number>();
    for (const row of rows) heads.set(row.sessionKey, row.head);
    return keys.map((key) => {
      const version = heads.get(key) ?? 0;
      return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
    });
  };

  return {
    async status(sessionKey, statusOptions) {
      failures.ensureOpen('status');
      const key = decodeSessionKey(sessionKey, 'status.sessionKey');
      const { changesSince, limit, reader } = decodeOptional(StatusOptions, statusOptions, 'status') ?? {};
      const fields = { sessionKey: key };
      // Awaited, not returned: a promise returned from an async function costs two more turns.
      return await order.enter(async () => {
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
      return order.enter(() => listRows('list', keys));
    },

    async watched(watcherKey) {
      failures.ensureOpen('watched');
      const watcher = decodeSessionKey(watcherKey, 'watched.watcherKey');
      return order.enter(async () => {
        const cursors = await failures.storeCall('watched', () => store.listCursors({ watcher }), { watcher });
        const rows = await listRows('watched', cursors.map((cursor) => cursor.target));
        return cursors.map((cursor, i): WatchedSession => ({ ...(rows[i] as SessionListRow), pending: cursor.material > cursor.acked }));
      });
    },
  };
}

/**
 * The paragraph naming a watcher's watched sessions (`watched`) for its system prompt ('' when none):
 * the targets in the order given, at most 20, the rest counted. Versions and pending marks stay out,
 * so the bytes change only with the watched set and a cached prompt stays valid.
 */
export function renderWatchedSessions(rows: readonly WatchedSession[]): string {
  if (rows.length === 0) return '';
  const named = rows.slice(0, 20).map((row) => `"${row.sessionKey}"`);
  const more = rows.length > named.length ? ` and ${rows.length - named.length} more` : '';
  return `Sessions you watch: ${named.join(', ')}${more}. When another actor changes one, you get one notice; you can read any of them with session_status (sessionKey, changesSince), and should before you act on what you know of it.`;
}
