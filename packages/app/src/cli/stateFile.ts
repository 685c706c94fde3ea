// Where the state file is and how each kind of command opens it: read commands refuse a missing
// file (they never create an empty one), write commands open or create it through the adapter.
import fs from 'node:fs';

import { isStateFile, openSqliteStore } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';

import { UsageError } from './errors';

// --- the path ----------------------------------------------------------------------------------

/** The state file when neither `--db` nor `SESSION_STATE_DB` names one. */
export const DEFAULT_DB_PATH = './session-state.db';

/** The environment variable that names the state file. */
export const DB_ENV = 'SESSION_STATE_DB';

// --- opening -------------------------------------------------------------------------------------

/** Fails with a usage error naming `--db` unless `path` is an existing regular file. */
export function requireStateFile(path: string): void {
  let isFile = false;
  try {
    isFile = fs.statSync(path).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) {
    throw new UsageError('--db', `no state file at ${path} (read commands never create one; run "session-state demo" or "session-state record" first)`);
  }
}

/**
 * Opens an existing state file for a read command. A file that is not a session-state file is
 * refused before the adapter opens it, since opening would migrate (write) its schema.
 */
export async function openExistingStore(path: string): Promise<StateStore> {
  requireStateFile(path);
  if (!isStateFile(path)) throw new UsageError('--db', `${path} is not a session-state file`);
  return openStore(path);
}

/**
 * Opens the state file for a write command, creating it (and its schema) when missing or empty.
 * An existing non-empty file that is not a session-state file is refused before the adapter
 * opens it, since opening would write our schema into another program's file.
 */
export async function openOrCreateStore(path: string): Promise<StateStore> {
  if (holdsData(path) && !isStateFile(path)) {
    throw new UsageError('--db', `${path} is not a session-state file; refusing to write into it, choose another --db`);
  }
  return openStore(path);
}

/** True when something other than an empty regular file is at `path` (SQLite takes an empty file as a new database). */
function holdsData(path: string): boolean {
  try {
    const stat = fs.statSync(path);
    return !stat.isFile() || stat.size > 0;
  } catch {
    return false;
  }
}

/** Opens the adapter; a failure names the file and what SQLite reported. */
function openStore(path: string): Promise<StateStore> {
  try {
    return Promise.resolve(openSqliteStore({ path }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return Promise.reject(new Error(`cannot open the state file ${path}: ${reason}`, { cause: error }));
  }
}
