// Reads the head rows (state version and prune watermark) of a list of sessions, or all of them.
import { headRowOf, headsInKeyOrder } from '@session-state/adapters-sql-common';
import type { HeadRow, SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb.js';
import { runAlone } from './transaction.js';

/**
 * One row per distinct key that has a head (above 0: a row at 0 only orders a watch or delete,
 * see `lockHead`), in the order the keys were first given; every such row, by session key, when
 * no keys are given.
 */
export async function readHeads(db: StoreDb, sessionKeys?: readonly SessionKey[]): Promise<HeadRow[]> {
  if (sessionKeys === undefined) return (await runAlone(db, db.statements.allHeads, {})).map(headRowOf);
  const wanted = [...new Set(sessionKeys)];
  if (wanted.length === 0) return [];
  return headsInKeyOrder(wanted, await runAlone(db, db.statements.headsOf, { sessionKeys: wanted }));
}
