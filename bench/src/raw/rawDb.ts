// Opens a fresh raw baseline database file: the mirrored schema, the pragmas, and every
// statement the baseline uses, prepared once.
import Database from 'better-sqlite3';

import { applyPragmas, RAW_SCHEMA } from './schema.js';

export interface RawDb {
  readonly client: Database.Database;
  readonly st: RawStatements;
}

/** The baseline's prepared statements. */
export interface RawStatements {
  readonly insertEvent: Database.Statement;
  readonly raiseHead: Database.Statement;
  readonly cursorsOnTarget: Database.Statement<[string], RawCursor>;
  readonly updateCursor: Database.Statement;
  readonly insertCursor: Database.Statement;
  /** Positional rows (`.raw()` mode, as the store reads them with `.values()`): see RawChangeRow. */
  readonly changesSince: Database.Statement<[number, string, number], unknown[]>;
  readonly laggingCursors: Database.Statement<[], Omit<RawCursor, 'touched_at'>>;
  readonly raiseNotified: Database.Statement;
  /** (watcher, target, type, reason, via, acked, notified, material, recorded_at): one cursor journal entry, as the store appends it. */
  readonly insertJournal: Database.Statement;
}

/** The baseline's SQL, one text per statement: the better-sqlite3 and node:sqlite baselines prepare the same. */
export const RAW_SQL: { readonly [K in keyof RawStatements]: string } = {
  insertEvent: `INSERT INTO events (session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  raiseHead: `INSERT INTO heads (session_key, head, prune_watermark) VALUES (?, ?, 0)
       ON CONFLICT (session_key) DO UPDATE SET head = max(head, excluded.head)`,
  cursorsOnTarget: 'SELECT watcher, target, acked, notified, material, touched_at FROM cursors WHERE target = ?',
  updateCursor: 'UPDATE cursors SET acked = ?, notified = ?, material = ?, touched_at = ? WHERE watcher = ? AND target = ?',
  insertCursor: `INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (watcher, target) DO NOTHING`,
  changesSince: `SELECT h.head, h.prune_watermark, e.sequence, e.kind, e.actor_type, e.actor_session_key, e.summary,
              e.payload, e.occurred_at
         FROM heads h LEFT JOIN events e ON e.session_key = h.session_key AND e.sequence > ?
        WHERE h.session_key = ? ORDER BY e.sequence LIMIT ?`,
  // The store's scan: covered by the partial index cursors_lagging, in its order.
  laggingCursors: 'SELECT watcher, target, acked, notified, material FROM cursors WHERE material > acked ORDER BY watcher, target',
  raiseNotified: 'UPDATE cursors SET notified = material, touched_at = ? WHERE watcher = ? AND target = ?',
  insertJournal: `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};

function prepare(client: Database.Database): RawStatements {
  const st: Record<string, Database.Statement> = {};
  for (const [name, sql] of Object.entries(RAW_SQL)) st[name] = client.prepare(sql);
  st['changesSince']?.raw(true);
  return st as unknown as RawStatements;
}

/** A cursor row as stored. */
export interface RawCursor {
  watcher: string;
  target: string;
  acked: number;
  notified: number;
  material: number;
  touched_at: number;
}

/**
 * One row of the head ⟕ events read, positional: [head, prune_watermark, sequence, kind,
 * actor_type, actor_session_key, summary, payload, occurred_at]; event columns are null when
 * nothing follows `since`.
 */
export type RawChangeRow = readonly unknown[];

/**
 * Opens `path` with the same pragmas as the library, creating the mirrored schema unless
 * `existing` says the file already has it.
 */
export function openRawDb(path: string, options: { readonly existing?: boolean } = {}): RawDb {
  const client = new Database(path);
  applyPragmas(client);
  if (options.existing !== true) client.exec(RAW_SCHEMA);
  return { client, st: prepare(client) };
}
