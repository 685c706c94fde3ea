// Which store a command works on, read from the global --db and --schema options: a SQLite state
// file, or a schema of a PostgreSQL database that several gateways share; and how read and write
// commands open it (read commands never create a store, write commands create it when missing).
import type { Command } from 'commander';
import { DEFAULT_SCHEMA } from '@session-state/adapters-postgres';
import type { StateStore } from '@session-state/domain';

import { UsageError } from './errors';
import { dbPath, type GlobalOptions } from './io';
import { checkSchemaName, isPostgresUrl, normalisePostgresUrl, openExistingPostgresStore, openOrCreatePostgresStore, SCHEMA_ENV } from './postgresState';
import { maskUrl, urlScheme } from './secrets';
import { openExistingStore, openExistingStoreForWriting, openOrCreateStore, stateFilePath, type StateFilePath } from './stateFile';
import { toolCommand } from './toolCommand';

// --- the location --------------------------------------------------------------------------------

/** A SQLite state file (as named, and resolved), or a PostgreSQL server and schema. */
export type StateLocation =
  | ({ readonly kind: 'sqlite' } & StateFilePath)
  | { readonly kind: 'postgres'; readonly url: string; readonly schema: string; readonly tool: string };

/**
 * The store this run works on. `--db` (or `SESSION_STATE_DB`) is a file path or a
 * `postgres://` / `postgresql://` URL (any case, blanks around it ignored; any other URL is a
 * usage error); `--schema` (or `SESSION_STATE_PG_SCHEMA`) picks the schema
 * of a URL, default `session_state`, and is a usage error with a file, which has no schemas.
 * A relative file path starts at `cwd`, the run's working directory. Every problem is raised
 * before anything is opened.
 */
export function stateLocation(command: Command, cwd: string): StateLocation {
  const db = dbPath(command);
  const { schema } = command.optsWithGlobals<GlobalOptions>();
  const schemaFromEnv = command.getOptionValueSourceWithGlobals('schema') === 'env';
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
    return { kind: 'sqlite', ...stateFilePath(db, cwd) };
  }
  const url = normalisePostgresUrl(db);
  return { kind: 'postgres', url, schema: schema === undefined ? DEFAULT_SCHEMA : checkSchemaName(schema, schemaFromEnv), tool: toolCommand(cwd) };
}

// --- opening -------------------------------------------------------------------------------------

/** Opens an existing store for a read command; a missing file or an empty schema is a usage error naming --db. */
export function openForReading(location: StateLocation): Promise<StateStore> {
  return location.kind === 'sqlite' ? openExistingStore(location) : openExistingPostgresStore(location);
}

/** Opens an existing store for a command that writes but never creates one (`prune`): a missing file or an empty schema is a usage error. */
export function openExistingForWriting(location: StateLocation): Promise<StateStore> {
  return location.kind === 'sqlite' ? openExistingStoreForWriting(location) : openExistingPostgresStore(location);
}

/** Opens the store for a write command, creating (and migrating) the file or the schema when needed. */
export function openForWriting(location: StateLocation): Promise<StateStore> {
  return location.kind === 'sqlite' ? openOrCreateStore(location) : openOrCreatePostgresStore(location);
}
