// Migration 1: the events, heads and cursors tables with the indexes the hot queries use.
// Hand-written SQL kept as a string module so `tsc -b` ships it in dist/ with no copy step.
import type { Migration } from './migration';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE events (
  sequence          INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
  session_key       TEXT    NOT NULL,
  kind              TEXT    NOT NULL,
  actor_type        TEXT    NOT NULL,
  actor_session_key TEXT,
  summary           TEXT    NOT NULL,
  payload           TEXT,
  dedupe_key        TEXT,
  occurred_at       TEXT    NOT NULL,
  appended_at       INTEGER NOT NULL,
  CONSTRAINT events_dedupe_key_unique UNIQUE (dedupe_key)
);
CREATE INDEX events_session_sequence ON events (session_key, sequence);
CREATE INDEX events_appended_at ON events (appended_at);

CREATE TABLE heads (
  session_key     TEXT    PRIMARY KEY NOT NULL,
  head            INTEGER NOT NULL,
  prune_watermark INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE cursors (
  watcher    TEXT    NOT NULL,
  target     TEXT    NOT NULL,
  acked      INTEGER NOT NULL,
  notified   INTEGER NOT NULL,
  material   INTEGER NOT NULL,
  touched_at INTEGER NOT NULL,
  PRIMARY KEY (watcher, target)
);
CREATE INDEX cursors_target ON cursors (target);
CREATE INDEX cursors_lagging ON cursors (watcher, target, acked, notified, material) WHERE material > acked;
CREATE INDEX cursors_touched_at ON cursors (touched_at);
`,
};
