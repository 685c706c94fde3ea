// The PostgreSQL column's server: where it is, whether it answers, the fresh schemas each side of
// a workload gets (`bench_<pid>_<n>`, dropped when the column ends), and the pool size.
import pg from 'pg';

import type { BenchContext } from '../harness/context.js';
import type { PgPlace } from '../library/facade.js';
import type { PgSizes } from '../sizes.js';

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** Connections per pool, the same on both sides (the store's default). */
export const PG_POOL_SIZE = 10;

export type PgServerInfo = { readonly url: string; readonly version: string; readonly synchronousCommit: string };
type PgSchemas = { next(): string; dropAll(): Promise<void> };

export interface PgBenchContext extends BenchContext {
  readonly pg: { readonly url: string; readonly schemas: PgSchemas; readonly sizes: PgSizes };
}

export function resolvePgUrl(fromArgs: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['SESSION_STATE_PG_URL'];
  return fromArgs ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_PG_URL);
}

export function redactPgUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server's version and commit setting, or why it cannot be used. */
export async function probePgServer(url: string): Promise<{ ok: true; info: PgServerInfo } | { ok: false; reason: string }> {
  try {
    const setting = async (client: pg.Client, name: string): Promise<string> => (await client.query<{ v: string }>('SELECT current_setting($1) AS v', [name])).rows[0]?.v ?? '?';
    const info = await withClient(url, async (client) => ({ url: redactPgUrl(url), version: await setting(client, 'server_version'), synchronousCommit: await setting(client, 'synchronous_commit') }));
    return { ok: true, info };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : String(error);
    return { ok: false, reason: `${typeof e.code === 'string' && !message.includes(e.code) ? `${e.code}: ` : ''}${message}` };
  }
}

export function createPgSchemas(url: string): PgSchemas {
  const names: string[] = [];
  return {
    next() {
      names.push(`bench_${process.pid}_${names.length + 1}`);
      return names[names.length - 1] as string;
    },
    async dropAll() {
      if (names.length === 0) return;
      await withClient(url, async (client) => {
        for (const name of names.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      });
    },
  };
}

export const freshPlace = (ctx: PgBenchContext): PgPlace => ({ url: ctx.pg.url, schema: ctx.pg.schemas.next(), maxConnections: PG_POOL_SIZE });
