// Recognising a PostgreSQL store in --db, and the location a command works on there, without
// loading the driver: postgresState.ts (loaded only when a command opens the store) checks the
// schema name and applies the adapter's default.
import { urlScheme } from './secrets.js';

/**
 * The schema the help names as the default: the PostgreSQL adapter's DEFAULT_SCHEMA, which the
 * store applies (postgresState.ts); written out here so the help loads no driver, and a test
 * checks that the two agree.
 */
export const HELP_DEFAULT_SCHEMA = 'session_state';

/** The environment variable that names the schema when `--schema` is not given. */
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

/** True when `--db` names a PostgreSQL server (`postgres://…`, `PostgreSQL://…`, with blanks around) rather than a file. */
export function isPostgresUrl(db: string): boolean {
  const scheme = urlScheme(db);
  return scheme === 'postgres' || scheme === 'postgresql';
}

/** The URL as the driver should get it: trimmed, its scheme lower-cased (`POSTGRES://h` works as `postgres://h`). */
export function normalisePostgresUrl(db: string): string {
  const trimmed = db.trim();
  const colon = trimmed.indexOf(':');
  return `${trimmed.slice(0, colon).toLowerCase()}${trimmed.slice(colon)}`;
}
