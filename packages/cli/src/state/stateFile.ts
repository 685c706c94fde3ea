// How each kind of command opens the state file: read commands open an existing
// state file read-only (creating and changing nothing), `prune` opens an existing one to write,
// `record` opens or creates one; anything else at the path is refused with its own reason.
import fs from 'node:fs';
import nodePath from 'node:path';

import { labelStateFile, openSqliteStore, probeStateFile, type StateFileProbe } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';

import { orElse } from '../orElse.js';
import { StorageError, UsageError } from '../output/errors.js';
import type { StateFilePath } from './stateLocation.js';

/**
 * Refuses what no command may open, with its reason: something that is not a regular file (a
 * FIFO, which would block for ever, a directory, a socket, a device), another program's file,
 * or a file that cannot be read (exit 1, naming the cause). Returns the probe otherwise.
 */
function refuseUnusable(path: string, probe: StateFileProbe): Extract<StateFileProbe, { kind: 'missing' | 'empty' | 'state' }> {
  if (probe.kind === 'not-a-file') throw new UsageError('--db', `${path} is ${probe.what}, not a state file`);
  if (probe.kind === 'foreign') throw new UsageError('--db', `${path} is not a session-state file (${probe.reason}); choose another --db`);
  if (probe.kind === 'unreadable') throw new StorageError(`cannot read the state file ${path}: ${probe.reason}`);
  return probe;
}

/**
 * The usage error for a path whose folder is not a directory (`--db notes.txt/s.db`), which the
 * file system reports as a missing file; undefined when the folder is a directory or missing.
 */
function folderNotADirectory({ path, file }: StateFilePath): UsageError | undefined {
  for (let folder = nodePath.dirname(file); folder !== nodePath.dirname(folder); folder = nodePath.dirname(folder)) {
    const stat = orElse(() => fs.statSync(folder), undefined);
    if (stat === undefined) continue;
    if (stat.isDirectory()) return undefined;
    // The folder as the user wrote it: `notes.txt`, not its absolute path.
    const shown = nodePath.join(nodePath.dirname(path), nodePath.relative(nodePath.dirname(file), folder));
    return new UsageError('--db', `${path} cannot be a state file: ${shown} on its path is a file, not a directory`);
  }
  return undefined;
}

/** Fails with a usage error naming `--db` unless `at` holds a state file; returns its probe. */
function requireStateFile(at: StateFilePath): Extract<StateFileProbe, { kind: 'state' }> {
  const { path, file, tool } = at;
  const probe = refuseUnusable(path, probeStateFile(file));
  if (probe.kind === 'missing') {
    const hint = `only record and demo create one; run "${tool} demo" or "${tool} record" first`;
    throw folderNotADirectory(at) ?? new UsageError('--db', `no state file at ${path} (${hint})`);
  }
  if (probe.kind === 'empty') throw new UsageError('--db', `${path} is an empty file, not a session-state file`);
  return probe;
}

/**
 * Fails, naming the cause, unless this process may write `path` (when it exists) and its folder,
 * where SQLite keeps the -wal and -shm files beside it. Checked before opening, so a read-only
 * mount or a missing permission is reported as such rather than as whatever SQLite says later.
 */
export function requireWritable({ path, file }: StateFilePath): void {
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
      if (code === 'ENOTDIR') throw folderNotADirectory({ path, file, tool: '' }) ?? new StorageError(`cannot write ${what}: a folder on its path is not a directory (ENOTDIR)`);
      if (code === 'ENOENT') throw new UsageError('--db', `cannot create ${path}: the folder ${folder} does not exist`);
      const reason = code === 'EROFS' ? 'it is on a read-only file system' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : String(code);
      throw new StorageError(`cannot write ${what}: ${reason} (${String(code)})`);
    }
  }
}

/**
 * Opens an existing state file: for a read command read-only (nothing is created, migrated,
 * written or checkpointed, so another OS user's read never takes the owner's files over), or
 * `forWriting` for a command that writes to it but must not create it (`prune`).
 */
export async function openExistingStore(at: StateFilePath, forWriting: boolean): Promise<StateStore> {
  requireStateFile(at);
  if (forWriting) requireWritable(at);
  return openStore(at, !forWriting);
}

/**
 * openForWriting on a state file, where an empty file counts as none. A non-empty file that is not a
 * session-state file is refused before the adapter opens it, which would write our schema into it.
 */
export async function openOrCreateStore(at: StateFilePath, create: boolean, note: (line: string) => void): Promise<StateStore> {
  const probe = refuseUnusable(at.path, probeStateFile(at.file));
  const creating = probe.kind === 'missing' || probe.kind === 'empty';
  if (creating && !create) throw new UsageError('--db', `no state file at ${at.path}; --no-create refuses to create one (check the path)`);
  requireWritable(at);
  const store = await openStore(at, false);
  if (creating && at.file !== ':memory:') note(`created a new state file at ${at.path}`);
  return store;
}

/**
 * Creates a state file (and its schema) at `at`, where none is, labelled `label` (the demo's
 * proof that it made the file). A path it cannot create is refused as for `record`: naming --db
 * or the file, the path and why (a missing folder, a file on the path, no write access).
 */
export async function createLabelledStateFile(at: StateFilePath, label: string): Promise<void> {
  requireWritable(at);
  await (await openStore(at, false)).close();
  labelStateFile(at.file, label, Date.now());
}

/** Opens the adapter; a failure names the file and what SQLite reported. */
async function openStore({ path, file }: StateFilePath, readOnly: boolean): Promise<StateStore> {
  try {
    return openSqliteStore({ path: file, readOnly });
  } catch (error) {
    throw new StorageError(`cannot open the state file ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

const sizeOf = (file: string): number => orElse(() => fs.statSync(file).size, 0);

/**
 * What `schema` shows of a state file, looked at read-only: its schema version, its size on disk
 * and that of the -wal beside it (commits not yet checkpointed into the file; 0 when there is
 * none). A missing file is a usage error naming --db, as for read commands.
 */
export function describeStateFile(at: StateFilePath) {
  const { schemaVersion } = requireStateFile(at);
  return { schemaVersion, fileBytes: sizeOf(at.file), walBytes: sizeOf(`${at.file}-wal`) };
}
