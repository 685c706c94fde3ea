// Which store a command works on, read from the global --db and --schema options: a SQLite state
// file, or a schema of a PostgreSQL database that several gateways share; and how read and write
// commands open it (read commands never create a store, write commands create it when missing).
// The adapter of the store's kind is loaded when a command opens it, never before: `--version`,
// the help and a usage error load no driver, and a command on a file never loads PostgreSQL's.
import type { Command } from 'commander';
import type { StateStore } from '@session-state/domain';

import { UsageError } from '../output/errors.js';
import { isPostgresUrl, normalisePostgresUrl, SCHEMA_ENV, type PostgresLocation } from './postgresUrl.js';
import { maskUrl, urlScheme } from './secrets.js';
import { DB_ENV, stateFilePath, type StateFilePath } from './stateFilePath.js';
import { toolCommand } from '../toolCommand.js';

/** The options defined on the program itself and visible to every command. */
interface GlobalOptions {
  /** The state file or PostgreSQL URL: `--db`, else `SESSION_STATE_DB`, else `./session-state.db`. */
  readonly db: string;
  /** The PostgreSQL schema: `--schema`, else `SESSION_STATE_PG_SCHEMA`; undefined when neither is set. */
  readonly schema?: string;
}

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
  if (scheme !== undefined && !isPostgresUrl(db)) {
    throw new UsageError('--db', `${maskUrl(db)} is a ${scheme}: URL; expected a state file path or a postgres:// URL`);
  }
  if (!isPostgresUrl(db)) {
    if (schema !== undefined) {
      throw new UsageError(
        '--schema',
        `${schemaFromEnv ? `${SCHEMA_ENV} is set, but ` : ''}--schema only applies to a postgres:// --db; ${db} is a SQLite state file, which has no schemas`,
      );
    }
    if (/[\\/]$/u.test(db)) {
      throw new UsageError('--db', `${db} names a directory (it ends in a slash), not a state file; name a file in it, such as ${db}session-state.db`);
    }
    return { kind: 'sqlite', ...stateFilePath(db, cwd) };
  }
  return { kind: 'postgres', url: normalisePostgresUrl(db), schema, schemaFromEnv, tool: toolCommand(cwd) };
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
