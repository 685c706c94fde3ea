// The corrupt-row port: how a store adapter reports a stored row it cannot decode (a damaged
// file, a hand-edited database) instead of using it. A report names the row, never its content.

/** What is reported about a stored row that cannot be decoded; never the row's content. */
export interface CorruptRowInfo {
  /** The store operation that met the row, e.g. `readChanges`. */
  readonly operation: string;
  readonly table: 'events' | 'cursors' | 'cursor_journal';
  /** The event's sequence (for `events` rows). */
  readonly sequence?: number;
  /** Which check failed, e.g. `payload is not a JSON object`; names no stored value. */
  readonly reason: string;
}

/** Where corrupt rows go: an adapter's open store, whose `onCorruptRow` option defaults to a warning. */
export interface CorruptRowSink {
  readonly onCorruptRow: (info: CorruptRowInfo) => void;
}
