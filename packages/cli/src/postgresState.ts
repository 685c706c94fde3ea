// How the command-line tool reaches a PostgreSQL store that several gateways share: recognising a
// URL in --db, checking the schema name, masking the password in every message, and opening the
// store for a read command (never creating anything) or a write command (creating and migrating).
import { types } from 'node:util';

import { hasPostgresState, isSchemaName, openPostgresStore } from '@session-state/adapters-postgres';
import type { StateStore } from '@session-state/domain';

import { describeArgument } from './describe';
import { StorageError, UsageError } from './errors';
import { maskUrl, redactWith, urlScheme } from './secrets';

// --- the URL and the schema -------------------------------------------------------------------

/** The environment variable that names the schema when `--schema` is not given. */
export const SCHEMA_ENV = 'SESSION_STATE_PG_SCHEMA';

/** A PostgreSQL store: the server's URL and the schema holding the store's tables. */
export interface PostgresLocation {
  readonly url: string;
  readonly schema: string;
  /** The command that runs this tool from the run's working directory, for hints. */
  readonly tool: string;
}

/** The schemes that name a PostgreSQL server, matched in any case after trimming. */
const POSTGRES_SCHEMES: ReadonlySet<string> = new Set(['postgres', 'postgresql']);

/** True when `--db` names a PostgreSQL server (`postgres://…`, `PostgreSQL://…`, with blanks around) rather than a file. */
export function isPostgresUrl(db: string): boolean {
  const scheme = urlScheme(db);
  return scheme !== undefined && POSTGRES_SCHEMES.has(scheme);
}

/** The URL as the driver should get it: trimmed, its scheme lower-cased (`POSTGRES://h` works as `postgres://h`). */
export function normalisePostgresUrl(db: string): string {
  const trimmed = db.trim();
  const colon = trimmed.indexOf(':');
  return `${trimmed.slice(0, colon).toLowerCase()}${trimmed.slice(colon)}`;
}

// The adapter's rule for schema names (isSchemaName), checked here so a bad one is a usage error
// (exit 2) before any connection is tried.
const SCHEMA_EXPECTED = 'lower-case letters, digits and _ (at most 40, not starting with a digit or pg_)';

/** The schema name, or a usage error naming `--schema` (and `SESSION_STATE_PG_SCHEMA` when it came from there). */
export function checkSchemaName(schema: string, fromEnv: boolean): string {
  if (!isSchemaName(schema)) {
    throw new UsageError('--schema', `${fromEnv ? `${SCHEMA_ENV}: ` : ''}expected ${SCHEMA_EXPECTED}, got ${describeArgument(schema)}`);
  }
  return schema;
}

// --- never printing the password -----------------------------------------------------------------

/** `host:port` of a masked URL (5432 when the URL names none), or undefined when it does not parse. */
function serverOf(maskedUrl: string): string | undefined {
  try {
    const parsed = new URL(maskedUrl);
    return parsed.hostname === '' ? undefined : `${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}`;
  } catch {
    return undefined;
  }
}

/**
 * An error's message. Checked with `isNativeError` rather than `instanceof Error`: the socket
 * errors come from Node's own realm, which need not be the caller's (a test's sandbox).
 */
function messageOf(error: unknown): string {
  return types.isNativeError(error) ? error.message : String(error);
}

/** A driver failure's message without the URL's secrets, and with a reason even when the error has no message (Node's AggregateError). */
function reasonOf(error: unknown, url: string): string {
  const inner = (error as { errors?: unknown } | null)?.errors;
  let reason: string;
  if (types.isNativeError(error) && error.message === '' && Array.isArray(inner)) {
    reason = inner.map(messageOf).join('; ');
  } else {
    reason = messageOf(error);
  }
  if (reason === '') reason = String((error as { code?: unknown } | null)?.code ?? 'unknown error');
  return redactWith([url], reason);
}

/**
 * True for a failure to reach or log in to the server, rather than one inside the database:
 * a Node socket error code (ECONNREFUSED, ENOTFOUND, …) or SQLSTATE class 08 (connection),
 * 28 (authorisation) or 3D (no such database).
 */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^E[A-Z]+$/u.test(code) || /^(?:08|28|3D)/u.test(code));
}

/** An Error naming the server (masked) and, for a failure inside the database, the schema; never the password. */
function openFailure(location: PostgresLocation, error: unknown): Error {
  const masked = maskUrl(location.url);
  const server = serverOf(masked);
  const where = server === undefined ? masked : `${server} (${masked})`;
  const message = isConnectionFailure(error)
    ? `cannot connect to PostgreSQL at ${where}: ${reasonOf(error, location.url)}`
    : `cannot open the PostgreSQL store in schema ${location.schema} at ${where}: ${reasonOf(error, location.url)}`;
  return new StorageError(message);
}

// --- opening ---------------------------------------------------------------------------------------

// A command runs one operation at a time; two connections leave room for the facade's own work
// without taking much of a server that gateways share.
const CLI_MAX_CONNECTIONS = 2;

/**
 * Opens the store for a read command. A schema that holds no store is refused with a usage error
 * naming --db and the schema, and nothing is created on the server.
 */
export async function openExistingPostgresStore(location: PostgresLocation): Promise<StateStore> {
  let present: boolean;
  try {
    present = await hasPostgresState({ connectionString: location.url, schema: location.schema });
  } catch (error) {
    throw openFailure(location, error);
  }
  if (!present) {
    throw new UsageError(
      '--db',
      `no session-state store in schema ${location.schema} at ${maskUrl(location.url)} (read commands never create one; run "${location.tool} record" first, or choose the schema with --schema)`,
    );
  }
  return openOrCreatePostgresStore(location);
}

/** Opens the store for a write command, creating the schema and migrating it as a gateway would. */
export async function openOrCreatePostgresStore(location: PostgresLocation): Promise<StateStore> {
  try {
    return await openPostgresStore({ connectionString: location.url, schema: location.schema, maxConnections: CLI_MAX_CONNECTIONS });
  } catch (error) {
    throw openFailure(location, error);
  }
}
