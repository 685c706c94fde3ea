// Head writes as the domain computes them (`planHeadWrite`), from the row read inside the caller's write transaction.
import { headOfRow, type HeadChange } from '@session-state/adapters-sql-common';
import { initialHead, planHeadWrite, type SignalLogEvent, type SignalLogHead } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';

/** The session's head row, or undefined when it has none. */
export function readHead(db: StoreDb, sessionKey: string): SignalLogHead | undefined {
  const row = db.statements.headOf.get({ sessionKey });
  return row === undefined ? undefined : headOfRow(row);
}

/**
 * Applies `events` to the session's head row; returns the change (the row as read, for
 * `prunedSessions`) and the head after it. One row, so `planHeadWrite` directly (the append's
 * hot path), not the batch form `planHeadWrites`.
 */
export function writeHead(db: StoreDb, sessionKey: string, events: readonly SignalLogEvent[]): { readonly change: HeadChange; readonly after: SignalLogHead } {
  const locked = readHead(db, sessionKey);
  const write = planHeadWrite(locked, events);
  if (write.type === 'none') return { change: { sessionKey, locked, events }, after: locked ?? initialHead };
  db.statements[write.type === 'insert' ? 'insertHead' : 'updateHead'].run({ sessionKey, head: write.head.head, pruneWatermark: write.head.pruneWatermark });
  return { change: { sessionKey, locked, events }, after: write.head };
}
