// The raw SQLite baseline's database: the store's own migration SQL, its pragmas, and every
// statement the baseline runs, prepared once. When the store changes a query, mirror it here.
import Database from 'better-sqlite3';
import { MIGRATIONS } from '@session-state/adapters-sqlite';

/** The store's committed migrations, concatenated: exactly the library's tables and indexes. */
export const RAW_SCHEMA = MIGRATIONS.map((m) => m.sql).join('\n');

/** The pragmas both sides use: WAL, synchronous=NORMAL and a busy timeout. */
export const RAW_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000';

export type RawCursor = { watcher: string; target: string; acked: number; notified: number; material: number };

export interface RawStatements {
  readonly insertEvent: Database.Statement;
  readonly raiseHead: Database.Statement;
  readonly cursorsOnTarget: Database.Statement<[string], RawCursor>;
  readonly updateCursor: Database.Statement;
  /** Positional rows: [head, prune_watermark, sequence, kind, actor_type, actor_session_key, summary, payload, occurred_at]. */
  readonly changesSince: Database.Statement<[number, string, number], unknown[]>;
  readonly pendingCursors: Database.Statement<[], RawCursor>;
  readonly raiseNotified: Database.Statement;
  /** (watcher, target, type, reason, via, acked, notified, material, recorded_at). */
  readonly insertJournal: Database.Statement;
}

export interface RawDb {
  readonly client: Database.Database;
  readonly st: RawStatements;
}

/** One text per statement: the better-sqlite3 and node:sqlite baselines prepare the same. */
export const RAW_SQL: { readonly [K in keyof RawStatements]: string } = {
  insertEvent: `INSERT INTO events (session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  raiseHead: `INSERT INTO heads (session_key, head, prune_watermark) VALUES (?, ?, 0)
       ON CONFLICT (session_key) DO UPDATE SET head = max(head, excluded.head)`,
  cursorsOnTarget: 'SELECT watcher, target, acked, notified, material, touched_at FROM cursors WHERE target = ?',
  updateCursor: 'UPDATE cursors SET acked = ?, notified = ?, material = ?, touched_at = ? WHERE watcher = ? AND target = ?',
  changesSince: `SELECT h.head, h.prune_watermark, e.sequence, e.kind, e.actor_type, e.actor_session_key, e.summary,
              e.payload, e.occurred_at
         FROM heads h LEFT JOIN events e ON e.session_key = h.session_key AND e.sequence > ?
        WHERE h.session_key = ? ORDER BY e.sequence LIMIT ?`,
  pendingCursors: 'SELECT watcher, target, acked, notified, material FROM cursors WHERE material > acked ORDER BY watcher, target',
  raiseNotified: 'UPDATE cursors SET notified = material, touched_at = ? WHERE watcher = ? AND target = ?',
  insertJournal: `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};

/** Opens `path` with the store's pragmas, creating the schema unless `existing`. */
export function openRawDb(path: string, options: { readonly existing?: boolean } = {}): RawDb {
  const client = new Database(path);
  client.exec(RAW_PRAGMAS);
  if (options.existing !== true) client.exec(RAW_SCHEMA);
  const st: Record<string, Database.Statement> = {};
  for (const [name, sql] of Object.entries(RAW_SQL)) st[name] = client.prepare(sql);
  st['changesSince']?.raw(true);
  return { client, st: st as unknown as RawStatements };
}
