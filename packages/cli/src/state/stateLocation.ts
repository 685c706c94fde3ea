// Which store a command works on, read from the global --db and --schema options: a SQLite state
// file (the path as named and as opened), or a schema of a PostgreSQL database that several
// gateways share; and how read and write commands open it (read commands never create a store,
// write commands create it when missing). The adapter of the store's kind is loaded when a
// command opens it, never before: `--version`, the help and a usage error load no driver, and a
// command on a file never loads PostgreSQL's.
import fs from 'node:fs';
import nodePath from 'node:path';

import type { Command } from 'commander';
import type { StateStore } from '@session-state/domain';

import { orElse } from '../orElse.js';
import { UsageError } from '../output/errors.js';
import { toolCommand } from '../toolCommand.js';
import { maskUrl, urlScheme } from './secrets.js';

export const DEFAULT_DB_PATH = './session-state.db';
export const DB_ENV = 'SESSION_STATE_DB';

/**
 * A state file as the user named it (`path`, the text every message shows) and as it is opened
 * (`file`, resolved against the run's working directory rather than the process's, symbolic
 * links resolved: SQLite keeps the -wal and -shm beside the link's target), and the
 * command that runs this tool from that directory (`tool`), for the hints messages give.
 */
export interface StateFilePath {
  readonly path: string;
  readonly file: string;
  readonly tool: string;
}

/** `file` with its links resolved; a file not created yet by its folder's real path; as given when that cannot be resolved either. */
function realFile(file: string): string {
  return orElse(() => fs.realpathSync(file), undefined) ?? orElse(() => nodePath.join(fs.realpathSync(nodePath.dirname(file)), nodePath.basename(file)), file);
}

/**
 * The schema the help names as the default: the PostgreSQL adapter's DEFAULT_SCHEMA, which the
 * store applies (postgresState.ts); written out here so the help loads no driver, and a test
 * checks that the two agree.
 */
export const HELP_DEFAULT_SCHEMA = 'session_state';

export const SCHEMA_ENV = 'SESSION_STATE_PG_SCHEMA';

/**
 * A PostgreSQL store as the command line names it: the server's URL and the schema asked for
 * (`--schema` or SESSION_STATE_PG_SCHEMA; undefined for the adapter's default), not yet checked.
 */
export interface PostgresLocation {
  readonly url: string;
  readonly schema: string | undefined;
  /** The schema came from SESSION_STATE_PG_SCHEMA, so a bad one names the variable. */
  readonly schemaFromEnv: boolean;
  /** The command that runs this tool from the run's working directory, for hints. */
  readonly tool: string;
}

/** The program's own options, visible to every command: `--db` (else SESSION_STATE_DB, else the default) and `--schema` (else SESSION_STATE_PG_SCHEMA). */
type GlobalOptions = { readonly db: string; readonly schema?: string };

/** A SQLite state file (as named, and resolved), or a PostgreSQL server and schema. */
export type StateLocation =
  | ({ readonly kind: 'sqlite' } & StateFilePath)
  | ({ readonly kind: 'postgres' } & PostgresLocation);

/**
 * The store this run works on. `--db` (or `SESSION_STATE_DB`) is a file path or a
 * `postgres://` / `postgresql://` URL (any case, blanks around it ignored; any other URL is a
 * usage error); `--schema` (or `SESSION_STATE_PG_SCHEMA`) picks the schema
 * of a URL (checked, or the adapter's default, when the store is opened), and is a usage error
 * with a file, which has no schemas.
 * A relative file path starts at `cwd`, the run's working directory. Every problem is raised
 * before anything is opened.
 */
export function stateLocation(command: Command, cwd: string): StateLocation {
  const { db, schema } = command.optsWithGlobals<GlobalOptions>();
  const fromEnv = (name: keyof GlobalOptions): boolean => command.getOptionValueSourceWithGlobals(name) === 'env';
  // An empty --db ('' or SESSION_STATE_DB=) is refused before the command prints or opens anything.
  if (db === '') throw new UsageError('--db', fromEnv('db') ? `${DB_ENV} is set but empty; name a state file` : 'the path is empty; name a state file');
  const schemaFromEnv = fromEnv('schema');
  const scheme = urlScheme(db);
  if (scheme === 'postgres' || scheme === 'postgresql') {
    // The URL as the driver should get it: trimmed, its scheme lower-cased (`POSTGRES://h` works as `postgres://h`).
    return { kind: 'postgres', url: `${scheme}${db.trim().slice(scheme.length)}`, schema, schemaFromEnv, tool: toolCommand(cwd) };
  }
  if (scheme !== undefined) throw new UsageError('--db', `${maskUrl(db)} is a ${scheme}: URL; expected a state file path or a postgres:// URL`);
  if (schema !== undefined) {
    const fromVariable = schemaFromEnv ? `${SCHEMA_ENV} is set, but ` : '';
    throw new UsageError('--schema', `${fromVariable}--schema only applies to a postgres:// --db; ${db} is a SQLite state file, which has no schemas`);
  }
  if (/[\\/]$/u.test(db)) {
    throw new UsageError('--db', `${db} names a directory (it ends in a slash), not a state file; name a file in it, such as ${db}session-state.db`);
  }
  // `:memory:` is SQLite's name for no file, kept as it is.
  return { kind: 'sqlite', path: db, file: db === ':memory:' ? db : realFile(nodePath.resolve(cwd, db)), tool: toolCommand(cwd) };
}

/**
 * Opens an existing store, for a read command or, `forWriting`, a command that writes but never
 * creates one (`prune`): a missing file or an empty schema is a usage error naming --db.
 */
export async function openExisting(location: StateLocation, forWriting = false): Promise<StateStore> {
  if (location.kind === 'sqlite') return (await import('./stateFile.js')).openExistingStore(location, forWriting);
  return (await import('./postgresState.js')).openExistingPostgresStore(location);
}

/** Opens the existing store `command` names (for reading unless `forWriting`), runs `use` on it, and closes it whatever happens. */
export async function withStore<T>(command: Command, cwd: string, use: (store: StateStore, location: StateLocation) => Promise<T>, forWriting = false): Promise<T> {
  const location = stateLocation(command, cwd);
  const store = await openExisting(location, forWriting);
  try {
    return await use(store, location);
  } finally {
    await store.close();
  }
}

/**
 * Opens the store for a write command, creating (and migrating) the file or the schema when
 * needed and saying so through `note` in one stderr line (a mistyped --db must not pass
 * unnoticed), or refusing to when `create` is false (`--no-create`: a usage error, nothing created).
 */
export async function openForWriting(location: StateLocation, { create, note }: { readonly create: boolean; readonly note: (line: string) => void }): Promise<StateStore> {
  if (location.kind === 'sqlite') return (await import('./stateFile.js')).openOrCreateStore(location, create, note);
  return (await import('./postgresState.js')).openOrCreatePostgresStore(location, create, note);
}
