// `session-state mcp` end to end: the built bin spawned by the MCP SDK's own Client over its
// StdioClientTransport, on the state file the demo leaves. It lists the tools with their
// annotations and output schemas, answers session_status with the same JSON as `status --json`,
// turns a bad argument into a tool error, refuses record without --allow-write with a code of its
// own, answers an unknown tool with a protocol error, and keeps stdout for the protocol alone.
// Resources and subscriptions: mcpResources.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { answerOf, connect, type Session } from './support/mcpClient.js';
import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, tempDir } from './support/runCli.js';

const MANAGER = 'agent:main:main';
const READS = { readOnlyHint: true, openWorldHint: false };
const RESEARCHER = 'agent:main:subagent:researcher';

let dir: string;
let db: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir();
  db = path.join(dir, 'demo.db');
  expect((await runCli(['demo', '--db', db])).status).toBe(0);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('session-state mcp on the demo state file', () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(['--db', db]);
  });
  afterAll(async () => {
    await session.client.close();
  });

  test('lists session_status and sessions_list with their JSON Schemas and read-only annotations, and no record', async () => {
    const { tools } = await session.client.listTools();

    expect(tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['sessionKey'], properties: { sessionKey: {}, changesSince: {}, limit: {} } });
    expect(tools[0]?.description).toContain('changesSince = N');
    expect(tools.map((tool) => tool.annotations)).toEqual([READS, READS]);
    expect(tools[0]?.outputSchema).toMatchObject({ type: 'object', required: ['sessionKey', 'stateVersion'], properties: { stateChanges: { required: ['events', 'historyGap', 'earliestRetained', 'hasMore', 'nextSince'] } } });
    expect(tools[1]?.outputSchema).toMatchObject({ type: 'object', required: ['sessions'] });
  });

  test('the server says what it is for in two sentences, and offers tools and subscribable resources', () => {
    const instructions = session.client.getInstructions() ?? '';
    expect(instructions.match(/[.!?]["']?(?:\s|$)/gu)).toHaveLength(2);
    expect(instructions).toContain('session_status');
    expect(session.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true, listChanged: true } });
  });

  test('session_status answers with the JSON `status --since --json` prints', async () => {
    // The tool answers with the facade's status; `status --json` adds `exists` and `pruneWatermark`.
    const { exists: _exists, pruneWatermark: _watermark, ...expected } = jsonOf<Record<string, unknown>>(await runCli(['status', RESEARCHER, '--since', '0', '--json', '--db', db]));

    const result = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: RESEARCHER, changesSince: 0 } });

    expect(result.isError).toBe(false);
    expect(answerOf(result)).toEqual(expected);
    expect(answerOf(result)).toMatchObject({ stateChanges: { historyGap: true, hasMore: false } });
  });

  test('sessions_list gives the state version of each session', async () => {
    // `list --json` adds cursor counts and the prune watermark; the tool gives the facade's rows.
    const listed = jsonOf<{ sessionKey: string; stateVersion?: number }[]>(await runCli(['list', MANAGER, RESEARCHER, '--json', '--db', db]));
    const expected = listed.map(({ sessionKey, stateVersion }) => ({ sessionKey, ...(stateVersion !== undefined ? { stateVersion } : {}) }));

    const result = await session.client.callTool({ name: 'sessions_list', arguments: { sessionKeys: [MANAGER, RESEARCHER] } });

    expect(answerOf(result)).toEqual({ sessions: expected });
    expect(expected[1]?.stateVersion).toBeGreaterThan(0);
  });

  test('a bad argument is a tool error naming it, and the server keeps serving', async () => {
    const result = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: RESEARCHER, changesSince: -1 } });

    expect(result.isError).toBe(true);
    expect(answerOf(result)).toMatchObject({ error: { code: 'invalid_input', field: 'session_status.changesSince' } });
    expect((await session.client.callTool({ name: 'session_status', arguments: { sessionKey: RESEARCHER } })).isError).toBe(false);
  });

  test('record is refused without --allow-write, as a tool error with a code of its own that says why', async () => {
    const result = await session.client.callTool({ name: 'record', arguments: { sessionKey: MANAGER, kind: 'goal_changed', actorType: 'agent', summary: 'goal set' } });

    expect(result.isError).toBe(true);
    expect(answerOf(result)).toEqual({ error: { code: 'not_allowed', message: expect.stringContaining('--allow-write') } });
  });

  test('an unknown tool is a JSON-RPC protocol error (invalid params), not a tool result, and does not echo the name', async () => {
    const call = session.client.callTool({ name: 'sessions_delete', arguments: {} });

    await expect(call).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('session_status, sessions_list') });
    await expect(call).rejects.not.toMatchObject({ message: expect.stringContaining('sessions_delete') });
    expect((await session.client.callTool({ name: 'session_status', arguments: { sessionKey: RESEARCHER } })).isError).toBe(false);
  });

  test('stdout carried nothing but the protocol, and stderr stayed empty', () => {
    expect(session.protocolErrors).toEqual([]);
    expect(session.stderr()).toBe('');
  });
});

test('with --allow-write, record is listed and appends through the library', async () => {
  const copy = path.join(dir, 'writable.db');
  fs.copyFileSync(db, copy);
  const before = jsonOf<{ stateVersion: number }>(await runCli(['status', MANAGER, '--json', '--db', copy]));
  const session = await connect(['--db', copy, '--allow-write']);
  try {
    const record = (await session.client.listTools()).tools.find((tool) => tool.name === 'record');
    expect(record?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(record?.outputSchema).toMatchObject({ type: 'object', required: ['outcome'] });

    const result = await session.client.callTool({ name: 'record', arguments: { sessionKey: MANAGER, kind: 'goal_changed', actorType: 'agent', summary: 'goal set' } });

    expect(answerOf(result)).toMatchObject({ outcome: 'recorded', event: { sessionKey: MANAGER, kind: 'goal_changed' } });
    const event = answerOf(result)['event'] as { sequence: number };
    expect(event.sequence).toBeGreaterThan(before.stateVersion);
    expect(jsonOf<{ stateVersion: number }>(await runCli(['status', MANAGER, '--json', '--db', copy])).stateVersion).toBe(event.sequence);
  } finally {
    await session.client.close();
  }
});

test('with --reader, a session_status that reaches the head acknowledges that watcher\'s cursor, and no one else\'s', async () => {
  const OPS = 'agent:ops:main';
  const copy = path.join(dir, 'reader.db');
  fs.copyFileSync(db, copy);
  const recorded = await runCli(['record', RESEARCHER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'one more', '--db', copy]);
  expect(recorded.status).toBe(0);
  type Row = { watcher: string; acked: number; material: number; pending: boolean };
  const cursorsOf = async (): Promise<Row[]> => jsonOf<Row[]>(await runCli(['cursors', '--json', '--db', copy]));
  const before = await cursorsOf();
  expect(before.map((row) => [row.watcher, row.pending])).toEqual([[MANAGER, true], [OPS, true]]);
  const acked = before[1]?.acked ?? -1;
  const session = await connect(['--db', copy, '--reader', OPS]);
  try {
    const result = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: RESEARCHER, changesSince: acked } });
    expect(result.isError).toBe(false);
    expect(answerOf(result)).toMatchObject({ stateChanges: { hasMore: false } });
  } finally {
    await session.client.close();
  }
  const after = await cursorsOf();
  expect(after.map((row) => [row.watcher, row.pending])).toEqual([[MANAGER, true], [OPS, false]]);
  expect(after[1]?.acked).toBe(before[1]?.material);
});

test('piped calls are all answered, and the server exits 0 when its input ends', () => {
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...[2, 3, 4].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'session_status', arguments: { sessionKey: RESEARCHER, changesSince: 0 } } })),
  ];
  const run = spawnSync(process.execPath, [CLI_MAIN, 'mcp', '--db', db], { encoding: 'utf8', timeout: 20_000, input: messages.map((message) => JSON.stringify(message)).join('\n') + '\n' });

  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const answers = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean } });
  expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4]);
  expect(answers.filter((answer) => answer.id > 1).every((answer) => answer.result.isError === false)).toBe(true);
});

test('a missing state file is a usage error on stderr before any protocol, with nothing on stdout', () => {
  const run = spawnSync(process.execPath, [CLI_MAIN, 'mcp', '--db', path.join(dir, 'missing.db')], { encoding: 'utf8', input: '' });

  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^error: --db/u);
});
