// Migration 1: the events, heads and cursors tables, the sequence and the indexes the hot
// queries use. Hand-written SQL kept as a string module so `tsc -b` ships it in dist/. It runs
// with the search_path set to the store's schema alone (see migrate.ts), so the names are unqualified.
import type { Migration } from './migration';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE SEQUENCE event_sequence AS bigint;

CREATE TABLE events (
  sequence          bigint PRIMARY KEY,
  session_key       text   COLLATE "C" NOT NULL,
  kind              text   NOT NULL,
  actor_type        text   NOT NULL,
  actor_session_key text   COLLATE "C",
  summary           text   NOT NULL,
  payload           json,
  dedupe_key        text   COLLATE "C",
  occurred_at       text   NOT NULL,
  appended_at       bigint NOT NULL
);
CREATE UNIQUE INDEX events_dedupe_key_unique ON events (dedupe_key);
CREATE INDEX events_session_sequence ON events (session_key, sequence);
CREATE INDEX events_appended_at ON events (appended_at, sequence);

CREATE TABLE heads (
  session_key     text   COLLATE "C" PRIMARY KEY,
  head            bigint NOT NULL,
  prune_watermark bigint NOT NULL DEFAULT 0
);

CREATE TABLE cursors (
  watcher    text   COLLATE "C" NOT NULL,
  target     text   COLLATE "C" NOT NULL,
  acked      bigint NOT NULL,
  notified   bigint NOT NULL,
  material   bigint NOT NULL,
  touched_at bigint NOT NULL,
  PRIMARY KEY (watcher, target)
);
CREATE INDEX cursors_target ON cursors (target, watcher);
CREATE INDEX cursors_lagging ON cursors (watcher, target) INCLUDE (acked, notified, material) WHERE material > acked;
CREATE INDEX cursors_touched_at ON cursors (touched_at);
`,
};
