// The raw baseline's schema: the library's tables and indexes (the SQLite store's own migration
// SQL), plus the same connection pragmas, so both sides do the same SQL work.
import type Database from 'better-sqlite3';
import { MIGRATIONS } from '@session-state/adapters-sqlite';

/**
 * The store's own committed migrations, concatenated: the raw file gets exactly the library's
 * tables and indexes (no copy that could drift when a migration changes).
 */
export const RAW_SCHEMA = MIGRATIONS.map((m) => m.sql).join('\n');

/** The pragmas the issue fixes for both sides: WAL and synchronous=NORMAL (plus a busy timeout). */
export function applyPragmas(client: Database.Database): void {
  client.pragma('journal_mode = WAL');
  client.pragma('synchronous = NORMAL');
  client.pragma('busy_timeout = 5000');
}
