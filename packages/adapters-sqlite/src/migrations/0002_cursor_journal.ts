// Migration 2: the cursor journal, the durable log of cursor events (see the domain's
// cursorJournal.ts). Hand-written SQL kept as a string module so `tsc -b` ships it in dist/.
import type { Migration } from './migration';

export const cursorJournal: Migration = {
  version: 2,
  name: 'cursor_journal',
  sql: `
CREATE TABLE cursor_journal (
  position    INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  watcher     TEXT    NOT NULL,
  target      TEXT    NOT NULL,
  type        TEXT    NOT NULL,
  reason      TEXT,
  via         TEXT,
  acked       INTEGER NOT NULL,
  notified    INTEGER NOT NULL,
  material    INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL
);
CREATE INDEX cursor_journal_pair ON cursor_journal (watcher, target, position);
CREATE INDEX cursor_journal_recorded_at ON cursor_journal (recorded_at);
`,
};
