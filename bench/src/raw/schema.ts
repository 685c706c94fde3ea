// The raw baseline's schema: the library's tables and indexes (adapters-sqlite migration 1)
// copied verbatim, plus the same connection pragmas, so both sides do the same SQL work.
import type Database from 'better-sqlite3';

/** Migration 1 of `packages/adapters-sqlite/src/migrations/0001_initial.ts`, as is. */
export const RAW_SCHEMA = `
CREATE TABLE events (
  sequence          INTEGER PRIMARY KEY AUTOINCREMENT,
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
CREATE INDEX cursors_lagging ON cursors (watcher, target) WHERE material > acked;
CREATE INDEX cursors_touched_at ON cursors (touched_at);
`;

/** The pragmas the issue fixes for both sides: WAL and synchronous=NORMAL (plus a busy timeout). */
export function applyPragmas(client: Database.Database): void {
  client.pragma('journal_mode = WAL');
  client.pragma('synchronous = NORMAL');
  client.pragma('busy_timeout = 5000');
}

/** The schema of `events`, `heads` and `cursors` as SQLite reports it, whitespace-normalised. */
export function describeSchema(client: Database.Database): string[] {
  const rows = client
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
        WHERE tbl_name IN ('events', 'heads', 'cursors') AND sql IS NOT NULL ORDER BY type, name`,
    )
    .all() as { type: string; name: string; sql: string }[];
  return rows.map((r) => `${r.type} ${r.name}: ${r.sql.replace(/\s+/g, ' ').trim()}`);
}
