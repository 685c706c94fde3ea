// Where the state file is and how each kind of command opens it: read commands open an existing
// state file read-only (creating and changing nothing), `prune` opens an existing one to write,
// `record` opens or creates one; anything else at the path is refused with its own reason.
import fs from 'node:fs';
import nodePath from 'node:path';

import { openSqliteStore, probeStateFile, type StateFileProbe } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';

import { StorageError, UsageError } from './errors';
import { toolCommand } from './toolCommand';

// --- the path ----------------------------------------------------------------------------------

/** The state file when neither `--db` nor `SESSION_STATE_DB` names one. */
export const DEFAULT_DB_PATH = './session-state.db';

/** The environment variable that names the state file. */
export const DB_ENV = 'SESSION_STATE_DB';

/**
 * A state file as the user named it (`path`, the text every message shows) and as it is opened
 * (`file`, resolved against the run's working directory rather than the process's), and the
 * command that runs this tool from that directory (`tool`), for the hints messages give.
 */
export interface StateFilePath {
  readonly path: string;
  readonly file: string;
  readonly tool: string;
}

/** The state file `path` names when relative paths start at `cwd` (`:memory:` is SQLite's name for no file, kept as it is). */
export function stateFilePath(path: string, cwd: string): StateFilePath {
  return { path, file: path === ':memory:' ? path : nodePath.resolve(cwd, path), tool: toolCommand(cwd) };
}

// --- what is at the path -------------------------------------------------------------------------

/**
 * Refuses what no command may open, with its reason: something that is not a regular file (a
 * FIFO, which would block for ever, a directory, a socket, a device), another program's file,
 * or a file that cannot be read (exit 1, naming the cause). Returns the probe otherwise.
 */
function refuseUnusable(path: string, probe: StateFileProbe): StateFileProbe {
  switch (probe.kind) {
    case 'not-a-file':
      throw new UsageError('--db', `${path} is ${probe.what}, not a state file`);
    case 'foreign':
      throw new UsageError('--db', `${path} is not a session-state file (${probe.reason}); choose another --db`);
    case 'unreadable':
      throw new StorageError(`cannot read the state file ${path}: ${probe.reason}`);
    default:
      return probe;
  }
}

/** Fails with a usage error naming `--db` unless `at` holds a state file; returns nothing else. */
function requireStateFile({ path, file, tool }: StateFilePath): void {
  const probe = refuseUnusable(path, probeStateFile(file));
  if (probe.kind === 'missing') {
    throw new UsageError('--db', `no state file at ${path} (read commands never create one; run "${tool} demo" or "${tool} record" first)`);
  }
  if (probe.kind === 'empty') throw new UsageError('--db', `${path} is an empty file, not a session-state file`);
}

// --- write access --------------------------------------------------------------------------------

/**
 * Fails, naming the cause, unless this process may write `path` (when it exists) and its folder,
 * where SQLite keeps the -wal and -shm files beside it. Checked before opening, so a read-only
 * mount or a missing permission is reported as such rather than as whatever SQLite says later.
 */
function requireWritable({ path, file }: StateFilePath): void {
  const folder = nodePath.dirname(path);
  for (const [target, what] of [
    [file, `the state file ${path}`],
    [nodePath.dirname(file), `the folder ${folder} (SQLite keeps the -wal and -shm files of ${path} there)`],
  ] as const) {
    try {
      fs.accessSync(target, fs.constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && target === file) continue;
      if (code === 'ENOENT') throw new UsageError('--db', `cannot create ${path}: the folder ${folder} does not exist`);
      const reason = code === 'EROFS' ? 'it is on a read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : String(code);
      throw new StorageError(`cannot write ${what}: ${reason} (${String(code)})`);
    }
  }
}

// --- opening -------------------------------------------------------------------------------------

/**
 * Opens an existing state file for a read command, read-only: nothing is created, migrated,
 * written or checkpointed, so another OS user's read never takes the owner's files over.
 */
export async function openExistingStore(at: StateFilePath): Promise<StateStore> {
  requireStateFile(at);
  return openStore(at, true);
}

/** Opens an existing state file for a command that writes to it but must not create it (`prune`). */
export async function openExistingStoreForWriting(at: StateFilePath): Promise<StateStore> {
  requireStateFile(at);
  requireWritable(at);
  return openStore(at, false);
}

/**
 * Opens the state file for a write command, creating it (and its schema) when missing or empty.
 * An existing non-empty file that is not a session-state file is refused before the adapter
 * opens it, since opening would write our schema into another program's file.
 */
export async function openOrCreateStore(at: StateFilePath): Promise<StateStore> {
  refuseUnusable(at.path, probeStateFile(at.file));
  requireWritable(at);
  return openStore(at, false);
}

/** Opens the adapter; a failure names the file and what SQLite reported. */
function openStore({ path, file }: StateFilePath, readOnly: boolean): Promise<StateStore> {
  try {
    return Promise.resolve(openSqliteStore({ path: file, readOnly }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return Promise.reject(new StorageError(`cannot open the state file ${path}: ${reason}`, { cause: error }));
  }
}
