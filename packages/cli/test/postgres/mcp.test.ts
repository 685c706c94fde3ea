// `session-state mcp` on a PostgreSQL store (SESSION_STATE_PG_URL; collected only when it is set):
// the SDK's client reads session_status from a schema the CLI recorded into, gets the same JSON
// as `status --json`, and a read-only server writes nothing to the schema; piped input is answered
// and the server exits 0 at its end. With --reader, another process's record reaches the subscribed
// notices resource: the server hears it through PostgreSQL's signals.
import { spawnSync } from 'node:child_process';

import pg from 'pg';

import { openPostgresStore } from '@session-state/adapters-postgres';
import { createSessionStateAwareness } from '@session-state/app';

import { answerOf, connect, readJson } from '../support/mcpClient.js';
import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, spawnCli, specNotice } from '../support/runCli.js';

jest.setTimeout(60_000);

const BASE_URL = process.env['SESSION_STATE_PG_URL'] ?? '';
const SCHEMA = `ss_cli_mcp_${process.pid}`;
const KEY = 'agent:main:subagent:researcher';

let client: pg.Client;

beforeAll(async () => {
  if (BASE_URL === '') throw new Error('SESSION_STATE_PG_URL is not set; jest.config.cjs should not have collected this file');
  requireBuiltCli();
  client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  for (const summary of ['goal set', 'goal changed']) {
    const run = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', summary, '--db', BASE_URL, '--schema', SCHEMA]);
    expect(run.status).toBe(0);
  }
});

afterAll(async () => {
  await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await client.end();
});

test('session_status over MCP answers with the JSON `status --since --json` prints, and writes nothing', async () => {
  // The tool answers with the facade's status; `status --json` adds `exists` and `pruneWatermark`.
  const { exists: _exists, pruneWatermark: _watermark, ...expected } = jsonOf<Record<string, unknown>>(await runCli(['status', KEY, '--since', '0', '--json', '--db', BASE_URL, '--schema', SCHEMA]));
  const journalBefore = await client.query(`SELECT count(*) AS n FROM ${SCHEMA}.cursor_journal`);
  const session = await connect(['--db', BASE_URL, '--schema', SCHEMA]);
  try {
    const result = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: KEY, changesSince: 0 } });

    expect(result.isError).toBe(false);
    expect(answerOf(result)).toEqual(expected);
    expect(answerOf(result)).toMatchObject({ stateChanges: { events: [{ summary: 'goal set' }, { summary: 'goal changed' }] } });
    const bad = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: KEY, limit: 0 } });
    expect(bad.isError).toBe(true);
    expect(session.stderr()).toBe('');
  } finally {
    await session.client.close();
  }
  expect((await client.query(`SELECT count(*) AS n FROM ${SCHEMA}.cursor_journal`)).rows).toEqual(journalBefore.rows);
});

test('when the client closes its input, the server answers what it was sent and exits 0', () => {
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sessions_list', arguments: { sessionKeys: [KEY] } } },
  ];
  const run = spawnSync(process.execPath, [CLI_MAIN, 'mcp', '--db', BASE_URL, '--schema', SCHEMA], {
    encoding: 'utf8',
    timeout: 20_000,
    input: messages.map((message) => JSON.stringify(message)).join('\n') + '\n',
  });

  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: number }).id).sort()).toEqual([1, 2]);
});

test("with --reader, another process's record updates the subscribed notices and session resources, and the notice reads back", async () => {
  const MANAGER = 'agent:main:main';
  const logger = { warn: () => undefined, error: () => undefined };
  const gateway = await createSessionStateAwareness({ store: await openPostgresStore({ connectionString: BASE_URL, schema: SCHEMA }), logger, startup: { restartScan: false, prune: 'off' } });
  const spawned = await gateway.childSpawned({ parentKey: MANAGER, childKey: KEY });
  await gateway.close();
  if (!spawned.ok) throw spawned.error;
  const session = await connect(['--db', BASE_URL, '--schema', SCHEMA, '--reader', MANAGER]);
  const notices = `session-state://watchers/${MANAGER}/notices`;
  const status = `session-state://sessions/${KEY}`;
  try {
    expect((await session.client.listResources()).resources.map((resource) => resource.uri)).toEqual([notices, status]);
    await session.client.subscribeResource({ uri: notices });
    await session.client.subscribeResource({ uri: status });

    const run = spawnCli(['record', KEY, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'a human turn', '--db', BASE_URL, '--schema', SCHEMA]);
    expect(run.status).toBe(0);

    expect((await session.updates(2)).sort()).toEqual([status, notices]);
    const seeded = spawned.event.sequence;
    expect(await readJson(session, notices)).toEqual([{ watcher: MANAGER, target: KEY, changesSince: seeded, text: specNotice(KEY, seeded) }]);
    expect(session.stderr()).toBe('');
  } finally {
    await session.client.close();
  }
});
