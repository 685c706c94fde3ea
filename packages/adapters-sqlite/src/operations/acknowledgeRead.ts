// A read that acknowledges: lock and read the pair's cursor, plan (`planAcknowledgeRead`), write the row and its `notice_read` entry.
import { decodeStoredCursor } from '@session-state/adapters-sql-common';
import { assertStoreKey, planAcknowledgeRead, type AcknowledgeReadOutcome, type AcknowledgeReadRequest } from '@session-state/domain';

import { writeCursorPlan } from './journal.js';
import { withLogMaterial } from './logMaterial.js';
import type { StoreDb } from '../db/storeDb.js';

/** Acknowledges what the watcher's read covered, in one write transaction (nothing when it covered nothing new). */
export function acknowledgeRead(db: StoreDb, request: AcknowledgeReadRequest): AcknowledgeReadOutcome {
  assertStoreKey('watcher', request.watcher);
  assertStoreKey('target', request.target);
  return db.client
    .transaction((): AcknowledgeReadOutcome => {
      const values = db.statements.cursorOf.get({ watcher: request.watcher, target: request.target });
      // A corrupt row is reported and left as it is, as every cursor reader does.
      const existing = values === undefined ? undefined : decodeStoredCursor(db, 'acknowledgeRead', values);
      const plan = planAcknowledgeRead({ request, existing: existing && withLogMaterial(db, [existing])[0] });
      writeCursorPlan(db, plan);
      return plan.outcome;
    })
    .immediate();
}
