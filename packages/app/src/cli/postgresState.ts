// How the command-line tool reaches a PostgreSQL store that several gateways share: recognising a
// URL in --db, checking the schema name, masking the password in every message, and opening the
// store for a read command (never creating anything) or a write command (creating and migrating).
import { hasPostgresState, isSchemaName, openPostgresStore } from '@session-state/adapters-postgres';
import { renderValue, type StateStore } from '@session-state/domain';

import { UsageError } from './errors';

// --- the URL and the schema -------------------------------------------------------------------

/** The environment variable that names the schema when `--schema` is not given. */
export const SCHEMA_ENV = 'SESSION_STATE_PG_SCHEMA';

/** A PostgreSQL store: the server's URL and the schema holding the store's tables. */
export interface PostgresLocation {
  readonly url: string;
  readonly schema: string;
}

const URL_SCHEME = /^postgres(?:ql)?:\/\//u;

/** True when `--db` names a PostgreSQL server (`postgres://…` or `postgresql://…`) rather than a file. */
export function isPostgresUrl(db: string): boolean {
  return URL_SCHEME.test(db);
}

// The adapter's rule for schema names (isSchemaName), checked here so a bad one is a usage error
// (exit 2) before any connection is tried.
const SCHEMA_EXPECTED = 'lower-case letters, digits and _ (at most 40, not starting with a digit or pg_)';

/** The schema name, or a usage error naming `--schema` (and `SESSION_STATE_PG_SCHEMA` when it came from there). */
export function checkSchemaName(schema: string, fromEnv: boolean): string {
  if (!isSchemaName(schema)) {
    throw new UsageError('--schema', `${fromEnv ? `${SCHEMA_ENV}: ` : ''}expected ${SCHEMA_EXPECTED}, got ${renderValue(schema)}`);
  }
  return schema;
}

// --- never printing the password -----------------------------------------------------------------

const PASSWORD_PARAM = /([?&]password=)[^&#]*/giu;

/**
 * The URL with its password replaced by `***` (`user:pass@` becomes `user:***@`, and a
 * `password=` parameter too), safe to print. The user info ends at the last `@`, as URL parsers
 * read it, so a password holding an unencoded `@` is masked whole; masking too much is harmless.
 *
 * @example maskUrl('postgres://app:s3cret@db:5432/state') // 'postgres://app:***@db:5432/state'
 */
export function maskUrl(url: string): string {
  const { scheme, user, password, afterPassword } = splitUrl(url);
  const masked = password === undefined ? afterPassword : `${user}:***${afterPassword}`;
  return scheme + masked.replace(PASSWORD_PARAM, '$1***');
}

/**
 * The URL's scheme, the user and password of its user info (the password undefined without one,
 * `afterPassword` then the whole rest) and what follows the password. The user info ends at the
 * last `@`, as URL parsers read it.
 */
function splitUrl(url: string): { readonly scheme: string; readonly user: string; readonly password?: string; readonly afterPassword: string } {
  const scheme = URL_SCHEME.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const colon = at < 0 ? -1 : rest.slice(0, at).indexOf(':');
  return colon < 0
    ? { scheme, user: '', afterPassword: rest }
    : { scheme, user: rest.slice(0, colon), password: rest.slice(colon + 1, at), afterPassword: rest.slice(at) };
}

/** `host:port` of a masked URL (5432 when the URL names none), or undefined when it does not parse. */
function serverOf(maskedUrl: string): string | undefined {
  try {
    const parsed = new URL(maskedUrl);
    return parsed.hostname === '' ? undefined : `${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port}`;
  } catch {
    return undefined;
  }
}

/** The passwords a URL carries (as typed and decoded), for scrubbing driver messages. */
function passwordsIn(url: string): string[] {
  const { password } = splitUrl(url);
  const raw = [...(password !== undefined ? [password] : []), ...[...url.matchAll(PASSWORD_PARAM)].map((match) => match[2] ?? '')];
  const decoded = raw.map((text) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  });
  // A very short password would garble unrelated words of a message; drivers never echo it anyway.
  return [...new Set([...raw, ...decoded])].filter((text) => text.length >= 4);
}

/** A driver failure's message without the password, and with a reason even when the error has no message (Node's AggregateError). */
function reasonOf(error: unknown, url: string): string {
  let reason: string;
  if (error instanceof AggregateError && error.message === '') {
    reason = error.errors.map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner))).join('; ');
  } else {
    reason = error instanceof Error ? error.message : String(error);
  }
  if (reason === '') reason = String((error as { code?: unknown } | null)?.code ?? 'unknown error');
  for (const password of passwordsIn(url)) reason = reason.split(password).join('***');
  return reason;
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
  return new Error(message);
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
      `no session-state store in schema ${location.schema} at ${maskUrl(location.url)} (read commands never create one; run "session-state record" first, or choose the schema with --schema)`,
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
