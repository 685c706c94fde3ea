// The CLI against a real PostgreSQL server (SESSION_STATE_PG_URL; packages/app/jest.config.cjs
// collects this folder only when it is set): record then read a schema, read commands that refuse
// a schema holding no store and create nothing, dedupe, and a failing command that never prints
// the password; record saying it created the schema (and --no-create refusing), schema, reset and
// delete. Each test works in its own schema and drops it afterwards.
import { spawn } from 'node:child_process';

import pg from 'pg';
import { openPostgresStore } from '@session-state/adapters-postgres';

import { createSessionStateAwareness } from '@session-state/app';
import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, type CliRun } from '../support/runCli.js';
import { exitOf, waitFor } from '../support/childOutput.js';
import { closedPort } from '../support/closedPort.js';

jest.setTimeout(60_000);

const BASE_URL = process.env['SESSION_STATE_PG_URL'] ?? '';
const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const WORKER = 'agent:main:subagent:worker';

/** The server's URL with a password in it (trust authentication ignores it), so tests can check it is never printed. */
function urlWithPassword(): { readonly url: string; readonly password: string } {
  const parsed = new URL(BASE_URL);
  if (parsed.password === '') parsed.password = 'hunter2-cli-secret';
  return { url: parsed.toString(), password: decodeURIComponent(parsed.password) };
}

const { url: URL_WITH_PASSWORD, password: PASSWORD } = urlWithPassword();

// --- one schema per test -------------------------------------------------------------------------

let client: pg.Client;
let counter = 0;
let schema: string;

beforeAll(async () => {
  if (BASE_URL === '') throw new Error('SESSION_STATE_PG_URL is not set; jest.config.cjs should not have collected this file');
  requireBuiltCli();
  client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

beforeEach(() => {
  counter += 1;
  schema = `ss_cli_${process.pid}_${counter}`;
});

afterEach(async () => {
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

async function schemaExists(name: string): Promise<boolean> {
  const result = await client.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS found', [name]);
  return result.rows[0]?.found === true;
}

/** Every row of the store's tables, each table in a stable order: equal dumps mean nothing was written. */
async function dumpSchema(): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const table of ['events', 'heads', 'cursors', 'cursor_journal', 'schema_migrations']) {
    const rows = await client.query(`SELECT * FROM ${schema}.${table}`);
    dump[table] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  const sequence = await client.query(`SELECT last_value, is_called FROM ${schema}.event_sequence`);
  dump['event_sequence'] = sequence.rows;
  return dump;
}

// --- running the CLI -------------------------------------------------------------------------------

/** The CLI on this test's schema; exit 0 expected, and stderr empty but for the line of a record that created the schema. */
async function ok(args: readonly string[]): Promise<CliRun> {
  const run = await runCli([...args, '--db', URL_WITH_PASSWORD, '--schema', schema]);
  expect(run.stderr).toMatch(new RegExp(`^(created schema ${schema} \\(a new session-state store\\) at [^\n]+\n)?$`, 'u'));
  expect(run.status).toBe(0);
  return run;
}

async function record(sessionKey: string, summary: string, extra: readonly string[] = []): Promise<number> {
  const run = await ok(['record', sessionKey, '--kind', 'goal_changed', '--actor', 'human', '--summary', summary, '--json', ...extra]);
  return jsonOf<{ event: { sequence: number } }>(run).event.sequence;
}

/** The manager watches the researcher, as a gateway's spawn edge leaves it. */
async function seedSpawnEdge(): Promise<void> {
  const store = await openPostgresStore({ connectionString: BASE_URL, schema });
  const awareness = await createSessionStateAwareness({ store });
  try {
    const spawned = await awareness.childSpawned({ parentKey: MANAGER, childKey: RESEARCHER, summary: 'research task' });
    expect(spawned.ok).toBe(true);
  } finally {
    await awareness.close();
  }
}

interface StatusJson {
  stateVersion: number;
  stateChanges?: { events: { sequence: number; summary: string }[]; historyGap: boolean; nextSince: number };
}

// --- the tests ---------------------------------------------------------------------------------------

test('record creates the schema; status, list and cursors read back what it and a gateway wrote', async () => {
  expect(await schemaExists(schema)).toBe(false);
  const worker = await record(WORKER, 'worker goal');
  expect(await schemaExists(schema)).toBe(true);

  await seedSpawnEdge();
  const text = (await ok(['record', RESEARCHER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'human message via telegram'])).stdout;
  const researcher = jsonOf<StatusJson>(await ok(['status', RESEARCHER, '--json'])).stateVersion;
  expect(text).toBe(`recorded #${researcher} human_direct_message on ${RESEARCHER} by human\n  watcher ${MANAGER}: notice pending\n`);

  const status = jsonOf<StatusJson>(await ok(['status', WORKER, '--since', '0', '--json']));
  expect(status.stateVersion).toBe(worker);
  expect(status.stateChanges?.events.map((event) => [event.sequence, event.summary])).toEqual([[worker, 'worker goal']]);
  expect((await ok(['status', WORKER])).stdout).toContain(`state version    ${worker}`);

  const list = jsonOf<{ sessionKey: string; stateVersion?: number; watching: number; watchedBy: number }[]>(await ok(['list', '--json']));
  expect(list).toEqual([
    { sessionKey: MANAGER, watching: 1, watchedBy: 0 },
    { sessionKey: RESEARCHER, stateVersion: researcher, pruneWatermark: 0, watching: 0, watchedBy: 1 },
    { sessionKey: WORKER, stateVersion: worker, pruneWatermark: 0, watching: 0, watchedBy: 0 },
  ]);

  const cursors = jsonOf<{ watcher: string; target: string; acked: number; material: number; pending: boolean }[]>(await ok(['cursors', '--json']));
  expect(cursors.map((row) => [row.watcher, row.target, row.pending, row.material])).toEqual([[MANAGER, RESEARCHER, true, researcher]]);
  expect((await ok(['cursors', '--watcher', WORKER])).stdout).toBe('no cursors\n');
});

test('reading changes nothing: status, list, cursors and explain leave every row of the schema as it was', async () => {
  await record(WORKER, 'one');
  await seedSpawnEdge();
  await record(RESEARCHER, 'two');
  const before = await dumpSchema();
  await ok(['status', RESEARCHER, '--since', '0', '--json']);
  await ok(['list']);
  await ok(['cursors']);
  await ok(['explain', MANAGER, RESEARCHER]);
  await ok(['explain', MANAGER, RESEARCHER, '--json']);
  expect(await dumpSchema()).toEqual(before);
});

interface ExplainJson {
  status: string;
  truncated: boolean;
  steps: { position: number; time: string; event: Record<string, unknown>; acked: number; notified: number; material: number; text: string }[];
  lines: string[];
}

test("explain prints the pair's cursor journal: the spawn edge's watch, the notice a record raised, the drain a gateway made", async () => {
  await seedSpawnEdge();
  const spawnedAt = jsonOf<StatusJson>(await ok(['status', RESEARCHER, '--json'])).stateVersion;
  const changed = await record(RESEARCHER, 'goal edited');
  const raised = jsonOf<ExplainJson>(await ok(['explain', MANAGER, RESEARCHER, '--json']));
  expect(raised).toMatchObject({ watcher: MANAGER, target: RESEARCHER, status: 'watching', truncated: false });
  expect(raised.steps.map((step) => step.event)).toEqual([
    { type: 'watch_started', via: 'spawn', at: spawnedAt },
    { type: 'notice_raised', acked: spawnedAt, notified: changed },
  ]);

  const store = await openPostgresStore({ connectionString: BASE_URL, schema });
  const awareness = await createSessionStateAwareness({ store, ownsSession: (key) => key === MANAGER });
  try {
    expect(await awareness.drain(MANAGER)).toHaveLength(1);
  } finally {
    await awareness.close();
  }
  const drained = jsonOf<ExplainJson>(await ok(['explain', MANAGER, RESEARCHER, '--json']));
  expect(drained.steps.map((step) => step.event.type)).toEqual(['watch_started', 'notice_raised', 'notice_acknowledged']);
  expect(drained.steps.at(-1)).toMatchObject({ acked: changed, notified: changed, material: changed });

  const text = (await ok(['explain', MANAGER, RESEARCHER])).stdout.trimEnd().split('\n');
  expect(text).toEqual([`watcher ${MANAGER}, target ${RESEARCHER}: the cursor journal`, ...drained.lines]);
  expect(text.at(-1)).toBe(`now (as of the last entry): idle at ${changed}; the next change by another actor raises a notice`);
  expect((await ok(['explain', WORKER, RESEARCHER, '--json'])).stdout).toContain('"status": "unknown"');
});

test('SESSION_STATE_PG_SCHEMA picks the schema, SESSION_STATE_DB the server, and postgresql:// works alike', async () => {
  const sequence = await record(WORKER, 'via env');
  const run = await runCli(['status', WORKER, '--json'], {
    SESSION_STATE_DB: URL_WITH_PASSWORD.replace(/^postgres:/u, 'postgresql:'),
    SESSION_STATE_PG_SCHEMA: schema,
  });
  expect(run.stderr).toBe('');
  expect(jsonOf<StatusJson>(run).stateVersion).toBe(sequence);
});

test('prune runs retention on the schema, and status then reports the gap', async () => {
  for (const summary of ['one', 'two', 'three']) await record(WORKER, summary);
  expect((await ok(['prune', '--max-rows', '1'])).stdout).toBe('pruned 2 events, expired 0 cursors\n');
  const status = jsonOf<StatusJson>(await ok(['status', WORKER, '--since', '0', '--json']));
  expect(status.stateChanges?.events.map((event) => event.sequence)).toEqual([status.stateVersion]);
  expect(status.stateChanges?.historyGap).toBe(true);
});

test('record with the same --dedupe-key twice says already recorded and writes nothing', async () => {
  const args = ['record', WORKER, '--kind', 'compacted', '--actor', 'system', '--summary', 'compacted', '--dedupe-key', 'compacted:op-1'];
  const first = jsonOf<{ event: { sequence: number }; duplicate: boolean }>(await ok([...args, '--json']));
  expect(first.duplicate).toBe(false);
  const before = await dumpSchema();
  const again = (await ok(args)).stdout;
  expect(again).toBe(`already recorded as #${first.event.sequence} compacted on ${WORKER} by system (same --dedupe-key); nothing written\n`);
  const json = jsonOf<{ event: { sequence: number }; duplicate: boolean }>(await ok([...args, '--json']));
  expect(json).toMatchObject({ duplicate: true, event: { sequence: first.event.sequence } });
  const after = await dumpSchema();
  // A duplicate may draw a sequence number it never uses (sequences need not be contiguous); rows must not change.
  expect({ ...after, event_sequence: [] }).toEqual({ ...before, event_sequence: [] });
});

test.each([
  ['status', ['status', WORKER]],
  ['status --since', ['status', WORKER, '--since', '0', '--json']],
  ['list', ['list']],
  ['cursors', ['cursors', '--json']],
  ['explain', ['explain', MANAGER, WORKER]],
  ['prune', ['prune']],
  ['tail', ['tail', WORKER]],
])('%s on a schema holding no store exits 2 naming --db and the schema, masks the password and creates nothing', async (_name, args) => {
  const run = await runCli([...args, '--db', URL_WITH_PASSWORD, '--schema', schema]);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: --db: /u);
  expect(lines[0]).toContain(`schema ${schema}`);
  expect(lines[0]).toContain(':***@');
  expect(lines[0]).not.toContain(PASSWORD);
  expect(await schemaExists(schema)).toBe(false);
});

test('with the server on a wrong port, record and status exit 1 naming host:port and never the password', async () => {
  const port = await closedPort();
  const wrong = new URL(URL_WITH_PASSWORD);
  wrong.port = String(port);
  for (const args of [['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'], ['status', WORKER]]) {
    const run = await runCli([...args, '--db', wrong.toString(), '--schema', schema]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`cannot connect to PostgreSQL at ${wrong.hostname}:${port}`);
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
  }
  expect(await schemaExists(schema)).toBe(false);
});

// --- tail ------------------------------------------------------------------------------------------

test('tail follows what record appends to the schema and exits 0 on SIGINT', async () => {
  const old = await record(RESEARCHER, 'before the tail started');
  const child = spawn(process.execPath, [CLI_MAIN, 'tail', RESEARCHER, '--json', '--db', URL_WITH_PASSWORD, '--schema', schema]);
  const exited = exitOf(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await waitFor(child.stderr, (text) => text.includes('following'));
  const stdout = waitFor(child.stdout, (text) => text.split('\n').length > 2);
  const first = await record(RESEARCHER, 'first while tailing');
  const second = await record(RESEARCHER, 'second while tailing');
  const lines = (await stdout).trimEnd().split('\n');
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  const events = lines.map((line) => JSON.parse(line) as { sessionKey: string; sequence: number; summary: string });
  expect(events.map((event) => [event.sessionKey, event.sequence, event.summary])).toEqual([
    [RESEARCHER, first, 'first while tailing'],
    [RESEARCHER, second, 'second while tailing'],
  ]);
  expect(lines.join('\n')).not.toContain(`"sequence":${old},`);
  expect(stderr).toBe(`following ${RESEARCHER} after #${old} (Ctrl-C to stop)\n`);
});

// --- creating, describing, reset and delete ------------------------------------------------------

const RECORD_RESEARCHER = ['record', RESEARCHER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];

/** The CLI on this test's schema, whatever its outcome. */
function cli(args: readonly string[]) {
  return runCli([...args, '--db', URL_WITH_PASSWORD, '--schema', schema]);
}

test('record says on stderr that it created the schema, once', async () => {
  const first = await cli(RECORD_RESEARCHER);
  expect(first.status).toBe(0);
  expect(first.stderr).toMatch(new RegExp(`^created schema ${schema} \\(a new session-state store\\) at postgres://postgres:\\*\\*\\*@`, 'u'));
  expect(first.stderr.split('\n')).toHaveLength(2);
  expect(first.stderr).not.toContain(PASSWORD);
  const second = await cli(RECORD_RESEARCHER);
  expect(second.status).toBe(0);
  expect(second.stderr).toBe('');
});

test('record --no-create on a schema without a store refuses (exit 2) and creates nothing on the server', async () => {
  const run = await cli([...RECORD_RESEARCHER, '--no-create']);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(new RegExp(`^error: --db: no session-state store in schema ${schema} at .*--no-create refuses to create one`, 'u'));
  expect(await schemaExists(schema)).toBe(false);
});

test("schema shows the schema version and each table's size; read-only, and refuses a schema without a store", async () => {
  const missing = await cli(['schema']);
  expect(missing.status).toBe(2);
  expect(await schemaExists(schema)).toBe(false);
  expect((await cli(RECORD_RESEARCHER)).status).toBe(0);
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
  expect((await cli(RECORD_RESEARCHER)).status).toBe(0);
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
