// Reads a `cursors` row (a positional array) back as the domain's CursorRow, refusing a row
// whose watermarks are not sequences (a hand-edited database) so it is reported and skipped.
import { asSequence, isSequence, type CursorRow, type SessionKey } from '@session-state/domain';

import type { StoreDb } from './storeDb';

/** Why a cursor row cannot be used, or undefined when it is sound; names no stored value. */
function cursorProblem(row: readonly unknown[]): string | undefined {
  if (typeof row[0] !== 'string' || typeof row[1] !== 'string') return 'watcher or target is not text';
  if (!isSequence(row[2]) || !isSequence(row[3]) || !isSequence(row[4])) return 'a watermark is not a non-negative integer';
  if (!(row[2] <= row[3] && row[3] <= row[4])) return 'watermarks are out of order';
  return undefined;
}

/** The sound rows of a cursor select (CursorValues: watcher, target, acked, notified, material, touchedAt); corrupt ones are reported and left out. */
export function decodeCursorRows(db: Pick<StoreDb, 'onCorruptRow'>, operation: string, rows: readonly (readonly unknown[])[]): CursorRow[] {
  const decoded: CursorRow[] = [];
  for (const row of rows) {
    const problem = cursorProblem(row);
    if (problem !== undefined) {
      db.onCorruptRow({ operation, table: 'cursors', reason: problem });
      continue;
    }
    decoded.push({
      watcher: row[0] as SessionKey,
      target: row[1] as SessionKey,
      acked: asSequence(row[2] as number),
      notified: asSequence(row[3] as number),
      material: asSequence(row[4] as number),
      touchedAt: row[5] as number,
    });
  }
  return decoded;
}
