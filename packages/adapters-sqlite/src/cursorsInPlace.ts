// Decodes the cursor rows of a select in the array better-sqlite3 returned, for the append path.
import { decodeStoredCursor } from '@session-state/adapters-sql-common';
import type { CursorRow } from '@session-state/domain';

/** Where a corrupt row is reported (the store's database handle). */
type CorruptRowSink = Parameters<typeof decodeStoredCursor>[0];

/**
 * The sound rows of a cursor select (CursorValues), in order, decoded into the array the select
 * returned (it is the caller's alone), so an append builds no second array; each corrupt row is
 * reported to `sink` and left out, as decodeStoredCursors does.
 */
export function decodeCursorsInPlace(sink: CorruptRowSink, operation: string, rows: unknown[][]): CursorRow[] {
  const decoded = rows as unknown[];
  let kept = 0;
  for (let i = 0; i < rows.length; i += 1) {
    // Row i is read before slot kept (≤ i) is written.
    const one = decodeStoredCursor(sink, operation, rows[i] as unknown[]);
    if (one !== undefined) decoded[kept++] = one;
  }
  decoded.length = kept;
  return decoded as CursorRow[];
}
