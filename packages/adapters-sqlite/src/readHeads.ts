// Reads the head rows (state version and prune watermark) of a list of sessions, or all of them.
import { headRowOf, headsInKeyOrder } from '@session-state/adapters-sql-common';
import type { HeadRow, SessionKey } from '@session-state/domain';
import { inArray } from 'drizzle-orm';

import { heads } from './schema';
import type { StoreDb } from './storeDb';

// SQLite's default limit on bound parameters is 32766; stay well below it per query.
const CHUNK = 500;

/**
 * One row per distinct key that has a head, in the order the keys were first given; every head
 * row, ordered by session key, when no keys are given.
 */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) return db.statements.allHeads.all({}).map(headRowOf);
  const wanted = [...new Set(sessionKeys)];
  const found: unknown[][] = [];
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const chunk = wanted.slice(i, i + CHUNK);
    found.push(...db.orm.select({ sessionKey: heads.sessionKey, head: heads.head, pruneWatermark: heads.pruneWatermark }).from(heads).where(inArray(heads.sessionKey, chunk)).values());
  }
  return headsInKeyOrder(wanted, found);
}
