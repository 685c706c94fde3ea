// Head writes as the domain computes them: the session's head row is read inside the caller's
// write transaction (BEGIN IMMEDIATE holds the file's write lock, so nothing moves it meanwhile),
// `planHeadWrites` folds the signal-log events into it, and the result is written as given.
import { headOfRow, planHeadWrites, type HeadChange } from '@session-state/adapters-sql-common';
import { initialHead, type SignalLogEvent, type SignalLogHead } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/** The session's head row, or undefined when it has none. */
export function readHead(db: StoreDb, sessionKey: string): SignalLogHead | undefined {
  const row = db.statements.headOf.get({ sessionKey });
  return row === undefined ? undefined : headOfRow(row);
}

/** Applies `events` to the session's head row; returns the change and the head after it (initialHead for none). */
export function writeHead(db: StoreDb, sessionKey: string, events: readonly SignalLogEvent[]): { readonly change: HeadChange; readonly after: SignalLogHead } {
  const change = { sessionKey, locked: readHead(db, sessionKey), events };
  const { writes, after } = planHeadWrites([change]);
  for (const write of writes) {
    if (write.insert) db.statements.insertHead.run(write);
    else db.statements.updateHead.run(write);
  }
  return { change, after: after.get(sessionKey) ?? initialHead };
}
