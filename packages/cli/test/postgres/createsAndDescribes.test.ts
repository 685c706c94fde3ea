// The CLI's store creation, reset, delete and schema on a real PostgreSQL server: record says when
// it created the schema and --no-create refuses to (nothing created); schema shows the version and
// each table's size; reset and delete act as the facade does. Each test works in its own schema.
import pg from 'pg';
import { openPostgresStore } from '@session-state/adapters-postgres';

import { createSessionStateAwareness } from '@session-state/app';

import { jsonOf, runCli } from '../support/runCli';

jest.setTimeout(60_000);

const BASE_URL = process.env['SESSION_STATE_PG_URL'] ?? '';
const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const RECORD = ['record', RESEARCHER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];

let client: pg.Client;
let counter = 0;
let schema: string;

beforeAll(async () => {
  if (BASE_URL === '') throw new Error('SESSION_STATE_PG_URL is not set; jest.config.ts should not have collected this file');
  client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

beforeEach(() => {
  counter += 1;
  schema = `ss_h3_cli_${process.pid}_${counter}`;
});

afterEach(async () => {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

async function schemaExists(): Promise<boolean> {
  const result = await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS found', [schema]);
  return result.rows[0]?.found === true;
}

function cli(args: readonly string[]) {
  return runCli([...args, '--db', BASE_URL, '--schema', schema]);
}

test('record says on stderr that it created the schema, once', async () => {
  const first = await cli(RECORD);
  expect(first.status).toBe(0);
  expect(first.stderr).toMatch(new RegExp(`^created schema ${schema} \\(a new session-state store\\) at postgres://`, 'u'));
  expect(first.stderr.split('\n')).toHaveLength(2);
  const second = await cli(RECORD);
  expect(second.status).toBe(0);
  expect(second.stderr).toBe('');
});

test('record --no-create on a schema without a store refuses (exit 2) and creates nothing on the server', async () => {
  const run = await cli([...RECORD, '--no-create']);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(new RegExp(`^error: --db: no session-state store in schema ${schema} at .*--no-create refuses to create one`, 'u'));
  expect(await schemaExists()).toBe(false);
});

test("schema shows the schema version and each table's size; read-only, and refuses a schema without a store", async () => {
  const missing = await cli(['schema']);
  expect(missing.status).toBe(2);
  expect(await schemaExists()).toBe(false);
  expect((await cli(RECORD)).status).toBe(0);
  const run = await cli(['schema', '--json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const described = jsonOf<{ kind: string; schema: string; schemaVersion: number; relations: { name: string; bytes: number }[]; totalBytes: number }>(run);
  const version = await client.query<{ v: number }>(`SELECT max(version)::int AS v FROM ${schema}.schema_migrations`);
  expect(described.kind).toBe('postgres');
  expect(described.schema).toBe(schema);
  expect(described.schemaVersion).toBe(version.rows[0]?.v);
  expect(described.relations.map((relation) => relation.name)).toEqual(expect.arrayContaining(['events', 'heads', 'cursors', 'schema_migrations']));
  const events = await client.query<{ bytes: string }>(`SELECT pg_total_relation_size('${schema}.events')::text AS bytes`);
  expect(described.relations.find((relation) => relation.name === 'events')?.bytes).toBe(Number(events.rows[0]?.bytes));
  expect(described.totalBytes).toBe(described.relations.reduce((sum, relation) => sum + relation.bytes, 0));
  expect((await cli(['schema'])).stdout).toContain(`schema ${schema} (PostgreSQL)`);
});

test('reset and delete act on the shared store as the facade does', async () => {
  expect((await cli(RECORD)).status).toBe(0);
  // The manager watches the researcher, as a gateway's spawn edge leaves it.
  const awareness = await createSessionStateAwareness({ store: await openPostgresStore({ connectionString: BASE_URL, schema }) });
  try {
    expect((await awareness.childSpawned({ parentKey: MANAGER, childKey: RESEARCHER, summary: 'research task' })).ok).toBe(true);
  } finally {
    await awareness.close();
  }
  const cursors = async () => jsonOf<unknown[]>(await cli(['cursors', '--json']));
  const watched = (await cursors()).length;
  expect(watched).toBe(1);
  const reset = await cli(['reset', MANAGER, '--json']);
  expect(reset.status).toBe(0);
  expect(jsonOf(reset)).toEqual({ watcher: MANAGER, cursorsRemoved: watched });
  expect(await cursors()).toEqual([]);
  const deleted = await cli(['delete', RESEARCHER, '--json']);
  expect(deleted.status).toBe(0);
  expect(jsonOf<{ exists: boolean; head: number }>(deleted)).toMatchObject({ exists: true });
  const status = jsonOf<{ stateChanges: { events: unknown[] } }>(await cli(['status', RESEARCHER, '--since', '0', '--json']));
  expect(status.stateChanges.events).toEqual([]);
});
