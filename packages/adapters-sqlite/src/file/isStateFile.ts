// Tells what is at a path (a state file, nothing, something else, or unreadable and why) without creating, changing or blocking on anything.
import fs from 'node:fs';

import { openReadOnlyDatabase } from './readOnlyDatabase.js';
import { resolveStatePath } from './statePath.js';

/** What a path holds, as far as a session-state tool is concerned. */
export type StateFileProbe =
  | { readonly kind: 'state'; readonly schemaVersion: number }
  | { readonly kind: 'missing' }
  | { readonly kind: 'empty' }
  /** A directory, FIFO, socket or device: never opened, since opening a FIFO blocks. */
  | { readonly kind: 'not-a-file'; readonly what: string }
  /** A readable file that is not SQLite, or a SQLite file this adapter never migrated. */
  | { readonly kind: 'foreign'; readonly reason: string }
  /** A file that could not be read: permissions, I/O, a damaged file; `code` is the errno or SQLite code. */
  | { readonly kind: 'unreadable'; readonly code: string; readonly reason: string };

/** How long a probe waits for a writer's lock; a probe is a quick look. */
const PROBE_TIMEOUT_MS = 2_000;

function whatIsNotAFile(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

const ERRNO_REASON: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** A short reason for an fs or SQLite error, with its code. */
export function reasonOf(error: unknown): { readonly code: string; readonly reason: string } {
  const code = String((error as { code?: unknown } | null)?.code ?? 'UNKNOWN');
  const reason = ERRNO_REASON[code] ?? (error instanceof Error ? error.message.replace(/^[A-Z]+: /u, '') : String(error));
  return { code, reason: `${reason} (${code})` };
}

/**
 * Looks at `path` read-only: stats it first (so a FIFO, socket or device is never opened), then
 * opens a regular file through `openReadOnlyDatabase`. A state file is one this adapter has
 * migrated (its `schema_migrations` table and `user_version` ≥ 1); a damaged file is `unreadable`,
 * never `foreign`, so a tool reports the damage instead of calling the file another program's.
 */
export function probeStateFile(path: string): StateFileProbe {
  // The -wal that holds the latest commits sits beside the link's target.
  const file = resolveStatePath(path);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    return { kind: 'unreadable', ...reasonOf(error) };
  }
  if (stat === undefined) return { kind: 'missing' };
  if (!stat.isFile()) return { kind: 'not-a-file', what: whatIsNotAFile(stat) };
  if (stat.size === 0) return { kind: 'empty' };
  let db: ReturnType<typeof openReadOnlyDatabase> | undefined;
  try {
    db = openReadOnlyDatabase(file, PROBE_TIMEOUT_MS);
    const version = db.client.pragma('user_version') as number;
    const bookkeeping = db.client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (version < 1 || bookkeeping === undefined) return { kind: 'foreign', reason: 'a SQLite database without the session-state tables' };
    return { kind: 'state', schemaVersion: version };
  } catch (error) {
    const { code, reason } = reasonOf(error);
    if (code === 'SQLITE_NOTADB') return { kind: 'foreign', reason: 'not a SQLite database' };
    return { kind: 'unreadable', code, reason };
  } finally {
    db?.client.close();
  }
}

/** True when `path` is an existing SQLite file that this adapter has migrated; see `probeStateFile` for the reason when not. */
export function isStateFile(path: string): boolean {
  return probeStateFile(path).kind === 'state';
}
