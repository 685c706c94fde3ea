// Head rows inside the caller's write transaction: the head read, and written as the domain folds it (`planHeadWrites`); and
// a pending cursor's material as its target's head row knows it (the newest notifying event and the newest of another actor),
// so a record on pending watchers writes one head row, not one per watcher; every cursor reader takes the greater of the
// stored material and that one.
import { headOfRow, type HeadRowWrite } from '@session-state/adapters-sql-common';
import { asSequence, isSequence, type CursorRow, type SignalLogHead } from '@session-state/domain';

import type { StoreDb } from '../db/storeDb.js';

/** The session's head row, or undefined when it has none. */
export function readHead(db: StoreDb, sessionKey: string): SignalLogHead | undefined {
  const row = db.statements.headOf.get({ sessionKey });
  return row === undefined ? undefined : headOfRow(row);
}

export function writeHeads(db: StoreDb, writes: readonly HeadRowWrite[]): void {
  for (const write of writes) db.statements[write.insert ? 'insertHead' : 'updateHead'].run(write);
}

const isTime = (u: unknown): u is number => typeof u === 'number' && Number.isSafeInteger(u);

/** The target's notify marks: the newest notifying event, its actor and time, and the newest of another actor and its time. */
function marksOf(db: StoreDb, target: string) {
  const row = db.statements.marksOf.get({ sessionKey: target });
  if (row === undefined) return undefined;
  // Null: no such event yet.
  const [last = 0, lastActor, lastAt = 0, other = 0, otherAt = 0] = row.map((value) => value ?? undefined);
  // Marks that are not sequences and times (a hand-edited file) raise nothing.
  if (!isSequence(last) || !isSequence(other) || !isTime(lastAt) || !isTime(otherAt)) return undefined;
  return { last, lastActor, lastAt, other, otherAt };
}

/** `rows` with each pending cursor's material raised to the newest change on its target not its watcher's, touched then. */
export function withLogMaterial(db: StoreDb, rows: readonly CursorRow[]): CursorRow[] {
  const marks = new Map<string, ReturnType<typeof marksOf>>();
  return rows.map((row) => {
    if (row.material <= row.acked) return row;
    if (!marks.has(row.target)) marks.set(row.target, marksOf(db, row.target));
    const m = marks.get(row.target);
    if (m === undefined) return row;
    const own = row.watcher === m.lastActor;
    const material = own ? m.other : m.last;
    return material > row.material ? { ...row, material: asSequence(material), touchedAt: own ? m.otherAt : m.lastAt } : row;
  });
}
