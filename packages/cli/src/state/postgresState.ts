// How the command-line tool reaches a PostgreSQL store that several gateways share: checking the
// schema name, masking the password in every message, and opening the store for a read command
// (never creating anything) or a write command (creating and migrating). Loaded only by a command
// that opens a postgres:// --db, since it loads the driver.
import { types } from 'node:util';

import pg from 'pg';

import { DEFAULT_SCHEMA, hasPostgresState, isSchemaName, openPostgresStore } from '@session-state/adapters-postgres';
import { describeValue, type StateStore } from '@session-state/domain';

import { orElse } from '../orElse.js';
import { StorageError, UsageError } from '../output/errors.js';
import { SCHEMA_ENV, type PostgresLocation } from './stateLocation.js';
import { maskUrl, redactWith } from './secrets.js';

// The adapter's rule for schema names (isSchemaName), checked here so a bad one is a usage error
// (exit 2) before any connection is tried.
const SCHEMA_EXPECTED = 'lower-case letters, digits and _ (at most 40, not starting with a digit or pg_)';

/**
 * A driver failure's message without the URL's secrets, and with a reason even when the error has
 * no message (Node's AggregateError). Errors are told by `isNativeError` rather than `instanceof
 * Error`: the socket errors come from Node's own realm, which need not be the caller's (a test's sandbox).
 */
function reasonOf(error: unknown, url: string): string {
  const messageOf = (e: unknown): string => (types.isNativeError(e) ? e.message : String(e));
  const inner = (error as { errors?: unknown } | null)?.errors;
  const reason = types.isNativeError(error) && error.message === '' && Array.isArray(inner) ? inner.map(messageOf).join('; ') : messageOf(error);
  return redactWith([url], reason === '' ? String((error as { code?: unknown } | null)?.code ?? 'unknown error') : reason);
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

// A command runs one operation at a time; two connections leave room for the facade's own work
// without taking much of a server that gateways share.
const CLI_MAX_CONNECTIONS = 2;

/** A location whose schema is checked and defaulted: what every opener below works on. */
type CheckedLocation = PostgresLocation & { readonly schema: string };

/**
 * `use`'s result; its failure is an Error naming the server (`host:port`, 5432 when the URL names none, and the
 * masked URL) and, for a failure inside the database, the schema; never the password.
 */
async function reaching<T>(location: CheckedLocation, use: () => Promise<T>): Promise<T> {
  try {
    return await use();
  } catch (error) {
    const masked = maskUrl(location.url);
    const parsed = orElse(() => new URL(masked), undefined);
    const where = parsed === undefined || parsed.hostname === '' ? masked : `${parsed.hostname}:${parsed.port === '' ? '5432' : parsed.port} (${masked})`;
    const message = isConnectionFailure(error)
      ? `cannot connect to PostgreSQL at ${where}: ${reasonOf(error, location.url)}`
      : `cannot open the PostgreSQL store in schema ${location.schema} at ${where}: ${reasonOf(error, location.url)}`;
    throw new StorageError(message);
  }
}

/**
 * The location with its schema checked, or the adapter's default (a bad name is a usage error,
 * before any connection, naming `--schema`, and `SESSION_STATE_PG_SCHEMA` when it came from
 * there), and whether its schema holds a store; with `why` (what to do instead), a schema without
 * one is a usage error naming --db and the schema, and nothing is created.
 */
async function locate(requested: PostgresLocation, why?: string): Promise<{ location: CheckedLocation; exists: boolean }> {
  const { schema = DEFAULT_SCHEMA, schemaFromEnv } = requested;
  if (!isSchemaName(schema)) throw new UsageError('--schema', `${schemaFromEnv ? `${SCHEMA_ENV}: ` : ''}expected ${SCHEMA_EXPECTED}, got ${describeValue(schema)}`);
  const location = { ...requested, schema };
  const exists = await reaching(location, () => hasPostgresState({ connectionString: location.url, schema: location.schema }));
  if (!exists && why !== undefined) throw new UsageError('--db', `no session-state store in schema ${location.schema} at ${maskUrl(location.url)} (${why})`);
  return { location, exists };
}

const open = (location: CheckedLocation): Promise<StateStore> =>
  reaching(location, () => openPostgresStore({ connectionString: location.url, schema: location.schema, maxConnections: CLI_MAX_CONNECTIONS }));

/** Opens the store for a read command (or a write command that never creates one); a schema without a store is a usage error. */
export async function openExistingPostgresStore(requested: PostgresLocation): Promise<StateStore> {
  const { location } = await locate(requested, `only record creates one; run "${requested.tool} record" first, or choose the schema with --schema`);
  return open(location);
}

/** openForWriting on PostgreSQL: a schema without a store is created and migrated as a gateway would. */
export async function openOrCreatePostgresStore(requested: PostgresLocation, create: boolean, note: (line: string) => void): Promise<StateStore> {
  const { location, exists } = await locate(requested, create ? undefined : '--no-create refuses to create one; check --db and --schema');
  const store = await open(location);
  if (!exists) note(`created schema ${location.schema} (a new session-state store) at ${maskUrl(location.url)}`);
  return store;
}

/**
 * What `schema` shows of a PostgreSQL store, read without writing anything: its schema, version,
 * and each table's size with its indexes. A schema without a store is a usage error.
 */
export async function describePostgresStore(requested: PostgresLocation) {
  const { location } = await locate(requested, `run "${requested.tool} record" first, or choose the schema with --schema`);
  const client = new pg.Client({ connectionString: location.url });
  client.on('error', () => undefined);
  return reaching(location, async () => {
    await client.connect();
    // The name is checked (checkedLocation), so it needs no quoting.
    const version = await client.query<{ version: number }>(`SELECT coalesce(max(version), 0)::int AS version FROM ${location.schema}.schema_migrations`);
    const sizes = await client.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')
        ORDER BY c.relname`,
      [location.schema],
    );
    return {
      schema: location.schema,
      schemaVersion: version.rows[0]?.version ?? 0,
      relations: sizes.rows.map((row) => ({ name: row.name, bytes: Number(row.bytes) })),
    };
  }).finally(() => client.end().catch(() => undefined));
}
