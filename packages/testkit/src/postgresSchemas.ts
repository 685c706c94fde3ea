// The PostgreSQL server the tests use (SESSION_STATE_PG_URL), a fresh schema per test, and its removal.
import pg from 'pg';

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
  const client = new pg.Client({ connectionString: pgUrl(), ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}) });
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
