// Migration 2: the cursor journal, the durable log of cursor events (see the domain's
// cursorJournal.ts). It runs with the search_path set to the store's schema alone (see
// migrate.ts), so the names are unqualified.
import type { Migration } from './migration';

export const cursorJournal: Migration = {
  version: 2,
  name: 'cursor_journal',
  sql: `
CREATE TABLE cursor_journal (
  position    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  watcher     text   COLLATE "C" NOT NULL,
  target      text   COLLATE "C" NOT NULL,
  type        text   NOT NULL,
  reason      text,
  via         text,
  acked       bigint NOT NULL,
  notified    bigint NOT NULL,
  material    bigint NOT NULL,
  recorded_at bigint NOT NULL
);
CREATE INDEX cursor_journal_pair ON cursor_journal (watcher, target, position);
CREATE INDEX cursor_journal_recorded_at ON cursor_journal (recorded_at);
`,
};
