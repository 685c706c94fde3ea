// The PostgreSQL column's server: where it is, whether it answers, the fresh schemas each side of a
// workload gets (`bench_<pid>_<n>`, dropped when the column ends), and the pool size; both sides of a
// workload: fresh schemas seeded alike with events, heads and cursors by plain SQL (the library
// store's own through a second pool), the facade started on the library's, and the paired latency run;
// and an operation's queries by statement (one round trip each, either side's), counted as they are sent.
import pg from 'pg';

import { openPostgresStore } from '@session-state/adapters-postgres';

import { latencyResult, type BenchContext, type PgSizes, type WorkloadResult } from '../harness/context.js';
import { runPaired } from '../harness/measure.js';
import { openPgLibraryStore, startOnStore, type LibraryOptions, type PgPlace } from '../library/facade.js';
import { SEED_EVENT, type CursorSeed, type EventSeed } from '../raw/rawDb.js';
import { openRawPool } from './rawPg.js';

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** Connections per pool, the same on both sides (the store's default). */
export const PG_POOL_SIZE = 10;

export type PgServerInfo = { readonly url: string; readonly version: string; readonly synchronousCommit: string };
type PgSchemas = { next(): string; dropAll(): Promise<void> };

export interface PgBenchContext extends BenchContext {
  readonly pg: { readonly url: string; readonly schemas: PgSchemas; readonly sizes: PgSizes };
}

/** --pg-url, else SESSION_STATE_PG_URL unless empty, else the local default. */
export const resolvePgUrl = (fromArgs: string | undefined): string => fromArgs ?? (process.env['SESSION_STATE_PG_URL'] || DEFAULT_PG_URL);

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

/** A fresh schema made by the store's own migrations (exactly its tables) and a pool of `size` connections on it. */
export async function freshSchema(ctx: PgBenchContext, size: number = PG_POOL_SIZE): Promise<{ place: PgPlace; pool: pg.Pool }> {
  const place = freshPlace(ctx);
  await (await openPostgresStore({ connectionString: place.url, schema: place.schema, maxConnections: 1 })).close();
  return { place, pool: openRawPool(place.url, place.schema, size) };
}

/** Event i gets sequence i + 1 (the sequence moved past them), heads raised to match, tables analyzed. */
export async function seedPgEvents(pool: pg.Pool, seed: EventSeed): Promise<void> {
  await pool.query(
    `INSERT INTO events (sequence, session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
     SELECT i + 1, ($1::text[])[(i % cardinality($1::text[])) + 1], $2, $3, NULL, $4, $5::json, NULL, $6, $7
       FROM generate_series(0, $8::bigint - 1) AS i`,
    [seed.sessionKeys, SEED_EVENT.kind, SEED_EVENT.actorType, SEED_EVENT.summary, JSON.stringify(SEED_EVENT.payload), new Date(seed.appendedAt).toISOString(), seed.appendedAt, seed.count],
  );
  await pool.query("SELECT setval('event_sequence', (SELECT max(sequence) FROM events))");
  await pool.query(
    `INSERT INTO heads (session_key, head, prune_watermark) SELECT session_key, max(sequence), 0 FROM events GROUP BY session_key
     ON CONFLICT (session_key) DO UPDATE SET head = GREATEST(heads.head, excluded.head)`,
  );
  await pool.query('ANALYZE events, heads');
}

/** Inserts cursor rows, 10,000 a statement, and analyzes the table. */
export async function seedPgCursors(pool: pg.Pool, rows: Iterable<CursorSeed>): Promise<void> {
  const all = [...rows];
  for (let from = 0; from < all.length; from += 10_000) {
    const chunk = all.slice(from, from + 10_000);
    const col = <K extends keyof CursorSeed>(k: K) => chunk.map((r) => r[k]);
    await pool.query(
      `INSERT INTO cursors (watcher, target, acked, notified, material, touched_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])`,
      [col('watcher'), col('target'), col('acked'), col('notified'), col('material'), col('touchedAt')],
    );
  }
  await pool.query('ANALYZE cursors');
}

export async function tailSinceFromPg(pool: pg.Pool, sessionKeys: readonly string[], tail: number): Promise<ReadonlyMap<string, number>> {
  const result = await pool.query<{ session_key: string; since: number }>(
    `SELECT k AS session_key, COALESCE((SELECT sequence FROM events WHERE session_key = k ORDER BY sequence DESC LIMIT 1 OFFSET $2), 0) AS since
       FROM unnest($1::text[]) AS k`,
    [sessionKeys, tail],
  );
  return new Map(result.rows.map((r) => [r.session_key, Number(r.since)]));
}

/** `seed` runs on both schemas (untimed) before the library's facade starts with `options`. */
export async function openPgSides(ctx: PgBenchContext, seed: (pool: pg.Pool) => Promise<void>, options: LibraryOptions = {}) {
  const lib = await freshSchema(ctx, 1);
  const raw = await freshSchema(ctx);
  try {
    await seed(lib.pool);
    await seed(raw.pool);
  } finally {
    await lib.pool.end();
  }
  const awareness = await startOnStore(await openPgLibraryStore(lib.place), options).catch(async (e: unknown) => {
    await raw.pool.end();
    throw e;
  });
  return {
    awareness,
    raw,
    close: async (): Promise<void> => {
      await awareness.close();
      await raw.pool.end();
    },
  };
}

type PairedOps = { readonly library: (i: number) => Promise<unknown>; readonly raw: (i: number) => Promise<unknown> };

/** runPaired of one library op against one raw op. */
export async function pgLatencyPair(ctx: PgBenchContext, id: string, title: string, run: { n: number; warmup: number }, ops: { library: string; raw: string }, sides: PairedOps): Promise<WorkloadResult> {
  const sideList = [{ name: 'library', async: sides.library }, { name: 'raw', async: sides.raw }];
  return latencyResult(id, title, ops, await runPaired({ label: `${id} ${title}`, n: run.n, warmup: run.warmup, chunk: ctx.pg.sizes.chunk, sides: sideList }, ctx.progress));
}

/** A named statement's name, else the first two words of the text. */
function labelOf(config: unknown): string {
  if (typeof config === 'string') return config.trim().split(/\s+/).slice(0, 2).join(' ');
  const c = config as { name?: unknown; text?: unknown } | null;
  return typeof c?.name === 'string' ? c.name : typeof c?.text === 'string' ? labelOf(c.text) : '?';
}

/** Calls `onQuery(label)` as each `Client#query` is sent (the pool's go through it too); returns the function that unwraps it. */
export function watchQueries(onQuery: (label: string) => void): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function counted(this: unknown, ...args: unknown[]) {
    onQuery(labelOf(args[0]));
    return original.apply(this, args);
  };
  return () => {
    proto.query = original;
  };
}

/** A pass's queries by label, over `ops` operations (the divisor of every figure). */
type OpCost = { readonly queries: ReadonlyMap<string, number>; readonly ops: number };

/** Ops per side of a cost pass. */
export const COUNTED_OPS = 100;

/** Each side's queries over op indexes `from` … `from + COUNTED_OPS - 1`, awaited one at a time. */
export async function costOfOps(from: number, library: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>): Promise<{ library: OpCost; raw: OpCost }> {
  const pass = async (op: (i: number) => Promise<unknown>): Promise<OpCost> => {
    const queries = new Map<string, number>();
    const unwatch = watchQueries((label) => void queries.set(label, (queries.get(label) ?? 0) + 1));
    try {
      for (let i = from; i < from + COUNTED_OPS; i++) await op(i);
    } finally {
      unwatch();
    }
    return { queries, ops: COUNTED_OPS };
  };
  return { library: await pass(library), raw: await pass(raw) };
}

const perOp = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

/** `4 queries (BEGIN 1, …)` per operation. */
export function describeQueries(cost: OpCost): string {
  const total = [...cost.queries.values()].reduce((a, b) => a + b, 0);
  const parts = [...cost.queries.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label} ${perOp(n / cost.ops)}`);
  return `${perOp(total / cost.ops)} queries (${parts.join(', ')})`;
}
