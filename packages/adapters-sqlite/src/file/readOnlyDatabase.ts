// Opens a state file for reading without creating, changing or taking over any file, so a read
// by another OS user (or beside a crashed gateway) leaves the owner's files exactly as they were.
import fs from 'node:fs';

import { betterSqlite3Client, loadBetterSqlite3 } from '../driver/betterSqlite3Client.js';
import type { SqliteClient } from '../driver/driver.js';

/** An open read-only view of a file; `isStale()` is true once the file changed since a snapshot was taken. */
export interface ReadOnlyDatabase {
  readonly client: SqliteClient;
  isStale(): boolean;
}

// Two modes, since a read-only WAL connection creates a missing -wal and -shm (which would lock
// out a gateway of another user): with both present, a read-only connection; with no or an empty
// -wal, a snapshot of the main file in memory; a -wal with frames but no -shm is refused.

/** Snapshot attempts when a writer changes the file while it is being copied. */
const SNAPSHOT_ATTEMPTS = 5;

/** The header bytes (offsets 18 and 19) that mark a WAL-mode file; 1 is the rollback journal. */
const WAL_FORMAT = 2;
const LEGACY_FORMAT = 1;

const sizeOf = (file: string): number | undefined => fs.statSync(file, { throwIfNoEntry: false })?.size;

/** The file's inode, size and change times as one comparable key, and its size. */
function identityOf(file: string): { readonly key: string; readonly size: bigint } {
  const { ino, size, mtimeNs, ctimeNs } = fs.statSync(file, { bigint: true });
  return { key: `${ino}:${size}:${mtimeNs}:${ctimeNs}`, size };
}

/** An error carrying a code, as better-sqlite3 and fs errors do. */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The main file's bytes as one consistent copy: taken again while a writer changes the file under it. */
function consistentCopy(file: string): { readonly bytes: Buffer; readonly identity: string } {
  for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt += 1) {
    const before = identityOf(file);
    const bytes = fs.readFileSync(file);
    const after = identityOf(file);
    if (before.key === after.key && BigInt(bytes.length) === after.size) return { bytes, identity: after.key };
  }
  throw codedError('SQLITE_BUSY', `${file} kept changing while it was being read; try again`);
}

function openSnapshot(file: string, timeoutMs: number): ReadOnlyDatabase {
  const { bytes, identity } = consistentCopy(file);
  // The copy is ours: mark it as a rollback-journal file, since an in-memory database has no WAL.
  if (bytes.length >= 100 && bytes[18] === WAL_FORMAT && bytes[19] === WAL_FORMAT) {
    bytes[18] = LEGACY_FORMAT;
    bytes[19] = LEGACY_FORMAT;
  }
  const client = betterSqlite3Client(new (loadBetterSqlite3())(bytes, { readonly: true, timeout: timeoutMs }));
  return {
    client,
    isStale: () => {
      try {
        return identityOf(file).key !== identity || (sizeOf(`${file}-wal`) ?? 0) > 0;
      } catch {
        return true;
      }
    },
  };
}

/**
 * Opens `file` for reading only; creates, modifies and checkpoints nothing.
 *
 * @example const { client } = openReadOnlyDatabase('state.db');
 */
export function openReadOnlyDatabase(file: string, timeoutMs: number): ReadOnlyDatabase {
  const walSize = sizeOf(`${file}-wal`);
  const hasShm = sizeOf(`${file}-shm`) !== undefined;
  if (walSize === undefined || (walSize === 0 && !hasShm)) return openSnapshot(file, timeoutMs);
  if (!hasShm) throw codedError('SQLITE_CANTOPEN', `${file}-wal holds changes but ${file}-shm is missing, and reading it would create that file; open it once with a writer (the gateway or a write command)`);
  const client = betterSqlite3Client(new (loadBetterSqlite3())(file, { readonly: true, fileMustExist: true, timeout: timeoutMs }));
  return { client, isStale: () => false };
}
