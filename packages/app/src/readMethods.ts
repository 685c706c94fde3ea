// `status` and `list`: reads through the lane, so each sees every write called before it. A
// `status` with a `reader` whose page reaches the head acknowledges the reader's cursor (issue 15).
import {
  buildStateChanges,
  isSequence,
  isSessionKey,
  MAX_PAGE_LIMIT,
  toSessionEvent,
  ZERO,
  type ChangesPage,
  type HeadRow,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
} from '@session-state/domain';

import type { SessionListRow, SessionStateAwareness } from './awarenessApi.js';
import type { FacadeParts } from './facadeParts.js';
import { decodeSessionKey, decodeSessionKeys, decodeStatusOptions } from './inputs.js';
import { describeFailure } from './storeOperationError.js';
import { decodeReadable } from './unreadableInput.js';

/**
 * The common valid `status` options (none, or a plain object with a valid `changesSince` and
 * `limit`), checked without io-ts on the polling path; undefined for anything else, which
 * `decodeStatusOptions` then accepts or rejects with its worded error.
 */
function plainStatusOptions(value: unknown): { readonly changesSince?: Sequence; readonly limit?: number; readonly reader?: SessionKey } | undefined {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const options = value as { readonly changesSince?: unknown; readonly limit?: unknown; readonly reader?: unknown };
  for (const field in options) if (field !== 'changesSince' && field !== 'limit' && field !== 'reader') return undefined;
  const { changesSince, limit, reader } = options;
  if (changesSince !== undefined && !isSequence(changesSince)) return undefined;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_PAGE_LIMIT)) return undefined;
  if (reader !== undefined && !(typeof reader === 'string' && isSessionKey(reader))) return undefined;
  return { changesSince, limit, reader } as { readonly changesSince?: Sequence; readonly limit?: number; readonly reader?: SessionKey };
}

/** A `readChanges` page in the shape `readSessionChanges` returns. */
function toSessionChangesPage(page: ChangesPage): SessionChangesPage {
  return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
}

/**
 * Each key's entry of `list`, from the store's head rows. The rows come in the order the keys were
 * first given (the port's readHeads), so each key is compared with the next row, and a map of the
 * rows is built only for a key that is not the next one (no head, or a repeat): listing 100,000
 * sessions that all have heads built a 100,000-entry map the rows already answered in order.
 * Correct in any row order: a key that is not the next row is looked up in the map.
 */
function versionOf(rows: readonly HeadRow[]): (key: SessionKey) => SessionListRow {
  let next = 0;
  let byKey: Map<string, number> | undefined;
  return (key) => {
    const row = rows[next];
    let version: number;
    if (row !== undefined && row.sessionKey === key) {
      next += 1;
      version = row.head;
    } else {
      byKey ??= new Map(rows.map((r) => [r.sessionKey, r.head]));
      version = byKey.get(key) ?? 0;
    }
    return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
  };
}

export function createReadMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'status' | 'list'> {
  const { store, counters, failures, order, board, logger, ownsWatcher } = parts;

  /**
   * The reader's page reached the head at `through`: acknowledge its cursor on `target`, withdraw
   * the notice queued for the pair, and queue the reopened one (changes recorded after the read,
   * in another process). Best-effort: a failure is logged and the status answer still returned,
   * since the notice then simply stays queued (one more turn, never a skipped change).
   */
  const acknowledgeRead = async (reader: SessionKey, target: SessionKey, since: Sequence, through: Sequence): Promise<void> => {
    const fields = { watcher: reader, target };
    try {
      const now = failures.now('status', fields);
      const outcome = await store.acknowledgeRead({ watcher: reader, target, since, through, now });
      if (!outcome.acknowledged) return;
      if (board.queue.remove(reader, target)) counters.add('noticesAcknowledgedByRead');
      if (outcome.reopened !== undefined && (ownsWatcher === undefined || ownsWatcher(reader))) board.offer(outcome.reopened);
    } catch (error) {
      logger.error({ operation: 'acknowledgeRead', ...fields, error: describeFailure(error) }, 'acknowledging a reader’s status read failed; its notice stays queued');
    }
  };

  return {
    async status(sessionKey, statusOptions) {
      failures.ensureOpen('status');
      // A valid key is checked without io-ts on the polling path; anything else gets the worded error.
      const key =
        typeof sessionKey === 'string' && isSessionKey(sessionKey)
          ? sessionKey
          : decodeReadable('status.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'status.sessionKey'));
      const { changesSince, limit, reader } = decodeReadable('status', statusOptions, () => plainStatusOptions(statusOptions) ?? decodeStatusOptions(statusOptions));
      // In the lane (at once when it is idle): the read sees every operation called before it.
      return order.enter(async () => {
        if (changesSince === undefined) {
          try {
            const [row] = await store.readHeads([key]);
            return { sessionKey: key, stateVersion: row?.head ?? ZERO };
          } catch (error) {
            throw failures.store('status', error, { sessionKey: key });
          }
        }
        let page: SessionChangesPage;
        try {
          // The store's lean read when it has one (no second mapping of every event), else readChanges.
          page =
            store.readSessionChanges !== undefined
              ? await store.readSessionChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT)
              : toSessionChangesPage(await store.readChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT));
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
      // In the lane (at once when it is idle), like status: it sees every write called before it.
      const rows = await order.enter(async () => {
        try {
          return await store.readHeads(keys);
        } catch (error) {
          throw failures.store('list', error);
        }
      });
      return keys.map(versionOf(rows));
    },
  };
}
