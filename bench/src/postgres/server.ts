// The PostgreSQL server the PostgreSQL column runs on: where it is (--pg-url, SESSION_STATE_PG_URL
// or the local default), whether it answers, and the fresh schemas each side of a workload gets
// (`bench_<pid>_<n>`), all dropped when the column ends.
import pg from 'pg';

/** The server the tests use: local, trust auth, database `test`. */
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The URL from `--pg-url`, else `SESSION_STATE_PG_URL`, else the default. */
export function resolvePgUrl(fromArgs: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['SESSION_STATE_PG_URL'];
  return fromArgs ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_PG_URL);
}

/** The URL as it may be printed: any password replaced by `***`. */
export function redactPgUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** What the report says about the server (printed in the PostgreSQL section's header). */
export interface PgServerInfo {
  readonly url: string;
  readonly version: string;
  /** `synchronous_commit`: whether a COMMIT waits for the WAL flush (on both sides alike). */
  readonly synchronousCommit: string;
}

/** Connects once (3 s timeout): the server's info, or why it cannot be used. */
export async function probePgServer(url: string): Promise<{ ok: true; info: PgServerInfo } | { ok: false; reason: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  // A failure after connect (the server going away) must not end the bench as an unhandled event.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const version = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    const sync = await client.query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s");
    return { ok: true, info: { url: redactPgUrl(url), version: version.rows[0]?.v ?? '?', synchronousCommit: sync.rows[0]?.s ?? '?' } };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : String(error);
    const code = typeof e.code === 'string' && !message.includes(e.code) ? `${e.code}: ` : '';
    return { ok: false, reason: `${code}${message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Hands out fresh schema names and drops every one of them (with its tables) at the end. */
export interface PgSchemas {
  /** A new schema name, `bench_<pid>_<n>`; nothing is created until a store or `createSchema` uses it. */
  next(): string;
  /** Drops every schema handed out, `DROP SCHEMA … CASCADE`. */
  dropAll(): Promise<void>;
}

export function createPgSchemas(url: string): PgSchemas {
  const names: string[] = [];
  return {
    next() {
      const name = `bench_${process.pid}_${names.length + 1}`;
      names.push(name);
      return name;
    },
    async dropAll() {
      if (names.length === 0) return;
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        // The names are ours ([a-z0-9_]), so they need no quoting.
        for (const name of names.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}
