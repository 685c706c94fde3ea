// Reads a `cursors` row (a positional array) back as the domain's CursorRow, refusing a row
// whose watermarks are not sequences (a damaged file) so it is reported and skipped, not used.
import { asSequence, isSequence, type CursorRow, type SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/** The column order of every cursor select. */
export type CursorValues = [watcher: string, target: string, acked: number, notified: number, material: number, touchedAt: number];

/** Why a cursor row cannot be used, or undefined when it is sound; names no stored value. */
function cursorProblem(row: readonly unknown[]): string | undefined {
  if (typeof row[0] !== 'string' || typeof row[1] !== 'string') return 'watcher or target is not text';
  if (!isSequence(row[2]) || !isSequence(row[3]) || !isSequence(row[4])) return 'a watermark is not a non-negative integer';
  if (typeof row[5] !== 'number') return 'touched_at is not a number';
  return undefined;
}

/** A cursor row read as CursorValues, or undefined (after reporting it) when it is corrupt. */
export function decodeCursorValues(db: Pick<StoreDb, 'onCorruptRow'>, operation: string, row: readonly unknown[]): CursorRow | undefined {
  const problem = cursorProblem(row);
  if (problem !== undefined) {
    db.onCorruptRow({ operation, table: 'cursors', reason: problem });
    return undefined;
  }
  return {
    watcher: row[0] as SessionKey,
    target: row[1] as SessionKey,
    acked: asSequence(row[2] as number),
    notified: asSequence(row[3] as number),
    material: asSequence(row[4] as number),
    touchedAt: row[5] as number,
  };
}

/** The sound rows of a cursor select; corrupt ones are reported and left out. */
export function decodeCursorRows(db: Pick<StoreDb, 'onCorruptRow'>, operation: string, rows: readonly (readonly unknown[])[]): CursorRow[] {
  const decoded: CursorRow[] = [];
  for (const values of rows) {
    const row = decodeCursorValues(db, operation, values);
    if (row !== undefined) decoded.push(row);
  }
  return decoded;
}
