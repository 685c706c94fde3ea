// Looks into a state file from outside the CLI: every table's rows (read-only) and the bytes of
// the file and its WAL, so a test can tell whether a command wrote anything at all.
import crypto from 'node:crypto';
import fs from 'node:fs';

import Database from 'better-sqlite3';

/** Every row of every table (sqlite_master and sqlite_sequence included), each table's rows in a stable order. */
export type TableDump = Record<string, unknown[]>;

/**
 * Reads all rows of all tables through a read-only connection, so looking changes nothing.
 * Rows are sorted by their JSON text: two dumps are equal exactly when the tables hold the same rows.
 */
export function dumpTables(file: string): TableDump {
  const client = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const dump: TableDump = { sqlite_master: sortedRows(client.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all()) };
    const tables = client.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables) {
      dump[table] = sortedRows(client.prepare(`SELECT * FROM "${table.replace(/"/gu, '""')}"`).all());
    }
    return dump;
  } finally {
    client.close();
  }
}

function sortedRows(rows: unknown[]): unknown[] {
  return rows
    .map((row) => [JSON.stringify(row), row] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, row]) => row);
}

/**
 * The sha256 of the file's bytes followed by its -wal's. An empty -wal counts as none: a
 * read-only look (dumpTables) leaves one behind and the next writer's close removes it, and
 * neither holds data.
 */
export function hashFileAndWal(file: string): string {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(file));
  const wal = `${file}-wal`;
  const walBytes = fs.existsSync(wal) ? fs.readFileSync(wal) : Buffer.alloc(0);
  if (walBytes.length > 0) hash.update('\0wal\0').update(walBytes);
  return hash.digest('hex');
}

/** Moves every event's append time and every cursor's touch time `ms` into the past. */
export function ageStateFile(file: string, ms: number): void {
  const client = new Database(file, { fileMustExist: true });
  try {
    client.prepare('UPDATE events SET appended_at = appended_at - ?').run(ms);
    client.prepare('UPDATE cursors SET touched_at = touched_at - ?').run(ms);
  } finally {
    client.close();
  }
}
