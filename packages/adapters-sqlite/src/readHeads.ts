// Reads the head rows (state version and prune watermark) of a list of sessions.
import { asc, inArray } from 'drizzle-orm';
import { asSequence, type HeadRow, type SessionKey } from '@session-state/domain';

import { heads } from './schema';
import type { StoreDb } from './storeDb';

// SQLite's default limit on bound parameters is 32766; stay well below it per query.
const CHUNK = 500;

const toHeadRow = (row: { sessionKey: string; head: number; pruneWatermark: number }): HeadRow => ({
  sessionKey: row.sessionKey as SessionKey,
  head: asSequence(row.head),
  pruneWatermark: asSequence(row.pruneWatermark),
});

/**
 * One row per distinct key that has a head, in the order the keys were first given; every head
 * row, ordered by session key, when no keys are given.
 */
export function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): HeadRow[] {
  if (sessionKeys === undefined) {
    return db.orm
      .select({ sessionKey: heads.sessionKey, head: heads.head, pruneWatermark: heads.pruneWatermark })
      .from(heads)
      .orderBy(asc(heads.sessionKey))
      .all()
      .map(toHeadRow);
  }
  const wanted = [...new Set(sessionKeys)];
  const found = new Map<string, HeadRow>();
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const chunk = wanted.slice(i, i + CHUNK);
    const rows = db.orm
      .select({ sessionKey: heads.sessionKey, head: heads.head, pruneWatermark: heads.pruneWatermark })
      .from(heads)
      .where(inArray(heads.sessionKey, chunk))
      .all();
    for (const row of rows) found.set(row.sessionKey, toHeadRow(row));
  }
  const result: HeadRow[] = [];
  for (const key of wanted) {
    const row = found.get(key);
    if (row !== undefined) result.push(row);
  }
  return result;
}
