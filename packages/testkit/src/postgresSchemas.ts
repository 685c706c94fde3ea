// The PostgreSQL server the tests use (SESSION_STATE_PG_URL), a fresh schema per test, and its removal.
// pg is loaded when first used: only the PostgreSQL suites need it.
import type pg from 'pg';

/** The test server's URL; the root Jest config runs the PostgreSQL suites only when it is set. */
export function pgUrl(): string {
  const url = process.env['SESSION_STATE_PG_URL'];
  if (url === undefined || url === '') {
    throw new Error('SESSION_STATE_PG_URL is not set: the PostgreSQL suite needs a server, e.g. postgres://postgres@127.0.0.1:5432/test');
  }
  return url;
}

let counter = 0;

/** A schema name no other test (or test process) uses. */
export function uniqueSchema(prefix = 't'): string {
  counter += 1;
  return `ss_${prefix}_${process.pid}_${counter}_${Math.floor(Math.random() * 1e6)}`;
}

/** Runs SQL on a connection of its own (not the store's), e.g. to look at or damage stored rows. */
export async function withClient<T>(work: (client: pg.Client) => Promise<T>, schema?: string): Promise<T> {
  const client = new (await import('pg')).default.Client({ connectionString: pgUrl(), ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await withClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

/** Migrated schemas emptied for reuse: migrating a new schema costs far more than emptying one. */
const emptied: string[] = [];

/** A schema that is new, or migrated and as empty as a new one after migration (see `releaseSchema`). */
export function takeSchema(prefix: string): string {
  return emptied.pop() ?? uniqueSchema(prefix);
}

/** Empties `schema` (every table but `schema_migrations`, every sequence restarted) for `takeSchema` to reuse. */
export async function releaseSchema(schema: string): Promise<void> {
  await withClient(async (client) => {
    const tables = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'`, [schema]);
    const sequences = await client.query<{ name: string }>(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1`, [schema]);
    // DELETE, not TRUNCATE: a test leaves few rows, and TRUNCATE replaces every table's files.
    const deletes = tables.rows.map((t) => `DELETE FROM ${schema}.${t.name};`);
    await client.query([...deletes, ...sequences.rows.map((q) => `ALTER SEQUENCE ${schema}.${q.name} RESTART;`)].join(''));
  });
  emptied.push(schema);
}

/** Drops the schemas `releaseSchema` kept (a suite's `afterAll`). */
export async function dropReleasedSchemas(): Promise<void> {
  for (const schema of emptied.splice(0)) await dropSchema(schema);
}

/**
 * Terminates `kills` backends whose `application_name` is `appName`, one at a time at random (busy
 * or idle), up to 20 ms apart, from a connection of its own; resolves with how many it terminated.
 * An attempt that finds none (the pool has not reconnected yet) is retried, up to four a kill.
 */
export async function terminateBackendsAtRandom(appName: string, kills: number): Promise<number> {
  const admin = new (await import('pg')).default.Client({ connectionString: pgUrl(), application_name: `${appName}_admin` });
  await admin.connect();
  let terminated = 0;
  try {
    for (let attempt = 0; terminated < kills && attempt < 4 * kills; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      const found = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1 AND pid <> pg_backend_pid() ORDER BY random() LIMIT 1`,
        [appName],
      );
      terminated += found.rowCount ?? 0;
    }
  } finally {
    await admin.end();
  }
  return terminated;
}
