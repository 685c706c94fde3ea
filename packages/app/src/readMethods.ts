// `status` and `list`: reads through the lane, so each sees every write called before it.
import {
  buildStateChanges,
  isSequence,
  isSessionKey,
  MAX_PAGE_LIMIT,
  toSessionEvent,
  ZERO,
  type ChangesPage,
  type Sequence,
  type SessionChangesPage,
} from '@session-state/domain';

import type { SessionStateAwareness } from './awarenessApi';
import type { FacadeParts } from './facadeParts';
import { decodeSessionKey, decodeSessionKeys, decodeStatusOptions } from './inputs';
import { decodeReadable } from './unreadableInput';

/**
 * The common valid `status` options (none, or a plain object with a valid `changesSince` and
 * `limit`), checked without io-ts on the polling path; undefined for anything else, which
 * `decodeStatusOptions` then accepts or rejects with its worded error.
 */
function plainStatusOptions(value: unknown): { readonly changesSince?: Sequence; readonly limit?: number } | undefined {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const options = value as { readonly changesSince?: unknown; readonly limit?: unknown };
  for (const field in options) if (field !== 'changesSince' && field !== 'limit') return undefined;
  const { changesSince, limit } = options;
  if (changesSince !== undefined && !isSequence(changesSince)) return undefined;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_PAGE_LIMIT)) return undefined;
  return { changesSince, limit } as { readonly changesSince?: Sequence; readonly limit?: number };
}

/** A `readChanges` page in the shape `readSessionChanges` returns. */
function toSessionChangesPage(page: ChangesPage): SessionChangesPage {
  return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
}

export function createReadMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'status' | 'list'> {
  const { store, counters, failures, order } = parts;

  return {
    async status(sessionKey, statusOptions) {
      failures.ensureOpen('status');
      // A valid key is checked without io-ts on the polling path; anything else gets the worded error.
      const key =
        typeof sessionKey === 'string' && isSessionKey(sessionKey)
          ? sessionKey
          : decodeReadable('status.sessionKey', sessionKey, () => decodeSessionKey(sessionKey, 'status.sessionKey'));
      const { changesSince, limit } = decodeReadable('status', statusOptions, () => plainStatusOptions(statusOptions) ?? decodeStatusOptions(statusOptions));
      // In the lane (at once when it is idle): the read sees every operation called before it.
      return order.enter(async () => {
        try {
          if (changesSince === undefined) {
            const [row] = await store.readHeads([key]);
            return { sessionKey: key, stateVersion: row?.head ?? ZERO };
          }
          // The store's lean read when it has one (no second mapping of every event), else readChanges.
          const page =
            store.readSessionChanges !== undefined
              ? await store.readSessionChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT)
              : toSessionChangesPage(await store.readChanges(key, changesSince, limit ?? MAX_PAGE_LIMIT));
          const stateChanges = buildStateChanges(page.head, changesSince, page.events, page.hasMore);
          if (stateChanges.historyGap) counters.add('gapsServed');
          return { sessionKey: key, stateVersion: page.head.head, stateChanges };
        } catch (error) {
          throw failures.store('status', error, { sessionKey: key });
        }
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
      const versions = new Map<string, number>();
      for (const row of rows) versions.set(row.sessionKey, row.head);
      return keys.map((key) => {
        const version = versions.get(key) ?? 0;
        return version > 0 ? { sessionKey: key, stateVersion: version } : { sessionKey: key };
      });
    },
  };
}
