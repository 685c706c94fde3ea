// Reads `cursors` rows (positional arrays in CursorValues order) back as the domain's CursorRow,
// with the domain's checks: a row a hand-edited database holds is reported to `db.onCorruptRow`
// (naming the operation and the failed check) and skipped, never used.
//   decodeCursorRows(db, operation, rows) → the sound rows, in order
export { decodeStoredCursors as decodeCursorRows, type CursorValues } from '@session-state/domain';
