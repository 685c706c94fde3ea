// Head writes as the domain computes them: the session's head row is read inside the caller's
// write transaction (BEGIN IMMEDIATE holds the file's write lock, so nothing moves it meanwhile),
// `planHeadWrite` folds the signal-log events into it, and the result is written as given.
import { asSequence, initialHead, planHeadWrite, type SignalLogEvent, type SignalLogHead } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/** The session's head row, or undefined when it has none. */
export function readHead(db: StoreDb, sessionKey: string): SignalLogHead | undefined {
  const row = db.statements.headOf.get(sessionKey) as unknown[] | undefined;
  if (row === undefined) return undefined;
  return { head: asSequence(row[0] as number), pruneWatermark: asSequence(row[1] as number) };
}

/** Applies `events` to the session's head row by `planHeadWrite`; returns the head before and after (initialHead for none). */
export function writeHead(db: StoreDb, sessionKey: string, events: readonly SignalLogEvent[]): { readonly before: SignalLogHead; readonly after: SignalLogHead } {
  const locked = readHead(db, sessionKey);
  const write = planHeadWrite(locked, events);
  if (write.type === 'insert') db.statements.insertHead.run(sessionKey, write.head.head, write.head.pruneWatermark);
  else if (write.type === 'update') db.statements.updateHead.run(write.head.head, write.head.pruneWatermark, sessionKey);
  const before = locked ?? initialHead;
  return { before, after: write.type === 'none' ? before : write.head };
}
