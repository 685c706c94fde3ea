// Reads a `cursors` row (a positional array) back as the domain's CursorRow.
import { asSequence, type CursorRow, type SessionKey } from '@session-state/domain';

/** The column order of every cursor select. */
export type CursorValues = [watcher: string, target: string, acked: number, notified: number, material: number, touchedAt: number];

/** A cursor row read as CursorValues; integer columns are trusted as sequences. */
export function decodeCursorValues(row: readonly unknown[]): CursorRow {
  return {
    watcher: row[0] as SessionKey,
    target: row[1] as SessionKey,
    acked: asSequence(row[2] as number),
    notified: asSequence(row[3] as number),
    material: asSequence(row[4] as number),
    touchedAt: row[5] as number,
  };
}
