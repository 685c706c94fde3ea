// Reads the head rows (state version and prune watermark) of a list of sessions, or all of them.
import { asSequence, type HeadRow, type SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb';
import { runAlone } from './transaction';

const toHeadRow = (row: readonly unknown[]): HeadRow => ({
  sessionKey: row[0] as SessionKey,
  head: asSequence(row[1] as number),
  pruneWatermark: asSequence(row[2] as number),
});

/**
 * One row per distinct key that has a head (above 0: a row at 0 only orders a watch or delete,
 * see `lockHead`), in the order the keys were first given; every such row, by session key, when
 * no keys are given.
 */
export async function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): Promise<HeadRow[]> {
  if (sessionKeys === undefined) return (await runAlone(db, db.statements.allHeads, [])).map(toHeadRow);
  const wanted = [...new Set(sessionKeys)];
  if (wanted.length === 0) return [];
  const found = new Map<string, HeadRow>();
  for (const row of await runAlone(db, db.statements.headsOf, [wanted])) found.set(row[0] as string, toHeadRow(row));
  const result: HeadRow[] = [];
  for (const key of wanted) {
    const row = found.get(key);
    if (row !== undefined) result.push(row);
  }
  return result;
}
