// Labels a tool writes into a state file to say what made it (the demo marks its own file this
// way), kept in a table of their own that the store itself never reads or writes.
import { betterSqlite3Client, loadBetterSqlite3 } from '../driver/betterSqlite3Client.js';
import { openReadOnlyDatabase } from './readOnlyDatabase.js';
import { resolveStatePath } from './statePath.js';

const LABELS_TABLE = 'file_labels';

const CREATE_LABELS = `
CREATE TABLE IF NOT EXISTS ${LABELS_TABLE} (
  label       TEXT    PRIMARY KEY NOT NULL,
  labelled_at INTEGER NOT NULL
);`;

/**
 * Adds `label` to the state file at `path` (which must exist; the store creates it). Only the
 * tool that owns the label writes it, so its presence is positive proof of who made the file.
 *
 * @example labelStateFile('demo.db', 'session-state demo', Date.now())
 */
export function labelStateFile(path: string, label: string, now: number): void {
  const client = betterSqlite3Client(new (loadBetterSqlite3())(path, { fileMustExist: true }));
  try {
    client.exec(CREATE_LABELS);
    client.prepare(`INSERT OR IGNORE INTO ${LABELS_TABLE} (label, labelled_at) VALUES (?, ?)`).run(label, now);
  } finally {
    client.close();
  }
}

/** The labels of the file at `path`, read without creating or changing anything (none when it has no label table). */
export function stateFileLabels(path: string): string[] {
  const { client } = openReadOnlyDatabase(resolveStatePath(path), 2_000);
  try {
    const table = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(LABELS_TABLE);
    if (table === undefined) return [];
    return client.prepare(`SELECT label FROM ${LABELS_TABLE} ORDER BY label`).all().map((row) => row.label as string);
  } finally {
    client.close();
  }
}
