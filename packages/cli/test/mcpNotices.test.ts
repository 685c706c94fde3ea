// `session-state mcp --reader` delivers that watcher's notices, end to end with the SDK's own Client over stdio on a
// state file: notices_wait (listed with its schemas and annotations), the notices pending before the server started
// (its restart scan of the reader's cursors alone), notices attached to every other answer and not offered again once
// written, an empty answer at the timeout, a cancel, and a server killed between taking a notice and writing it. Then
// the cross-process suite (support/noticeDelivery.ts) on the state file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness } from '@session-state/app';

import { answerOf, connect, noticesOf } from './support/mcpClient.js';
import { CHILD, describeCrossProcessNotices, MANAGER, OPS, runHook, silent, stateFileWithPendingNotices, USER_PROMPT_SUBMIT } from './support/noticeDelivery.js';
import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, specNotice, suiteTempDir } from './support/runCli.js';

jest.setTimeout(60_000);

const READS = { readOnlyHint: true, openWorldHint: false };

const suite = suiteTempDir();
let files = 0;
const withPendingNotices = (): Promise<string> => stateFileWithPendingNotices(path.join(suite.path, `state-${(files += 1)}.db`));

type CursorRow = { watcher: string; target: string; acked: number; notified: number; material: number; pending: boolean };

const cursorsOf = async (db: string): Promise<CursorRow[]> => jsonOf<CursorRow[]>(await runCli(['cursors', '--json', '--db', db]));
/** Waits until MANAGER's cursor is acknowledged (the confirm follows the written answer). */
async function confirmedFor(db: string): Promise<CursorRow | undefined> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const row = (await cursorsOf(db)).find((each) => each.watcher === MANAGER);
    if (row?.pending === false) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await cursorsOf(db)).find((each) => each.watcher === MANAGER);
}

beforeAll(() => requireBuiltCli());

test('with --reader, notices_wait is listed, read-only and closed, and every other tool may carry notices; without, it is not offered', async () => {
  const db = await withPendingNotices();
  const reader = await connect(['--db', db, '--reader', MANAGER]);
  const plain = await connect(['--db', db]);
  try {
    const { tools } = await reader.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list', 'notices_wait']);
    const wait = tools[2];
    expect(wait?.annotations).toEqual(READS);
    expect(wait?.inputSchema).toMatchObject({ required: [], properties: { timeoutSeconds: { minimum: 0, maximum: 300 } }, additionalProperties: false });
    expect(wait?.outputSchema).toMatchObject({ required: ['notices'], properties: { notices: { items: { required: ['watcher', 'target', 'changesSince', 'text'] } } } });
    for (const tool of tools.slice(0, 2)) expect(tool.outputSchema?.properties).toHaveProperty('notices');

    expect((await plain.client.listTools()).tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list']);
    await expect(plain.client.callTool({ name: 'notices_wait', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(noticesOf(await plain.client.callTool({ name: 'sessions_list', arguments: { sessionKeys: [CHILD] } }))).toEqual([]);
  } finally {
    await reader.client.close();
    await plain.client.close();
  }
});

test("a notice pending before the server started is answered at once, once; the restart scan touched the reader's cursors only", async () => {
  const db = await withPendingNotices();
  const before = await cursorsOf(db);
  const session = await connect(['--db', db, '--reader', MANAGER]);
  try {
    // One notice covers both turns: the restart scan froze it at the latest.
    expect(answerOf(await session.client.callTool({ name: 'notices_wait', arguments: {} }))).toEqual({ notices: [{ watcher: MANAGER, target: CHILD, changesSince: 1, text: specNotice(CHILD, 1) }] });
    expect(answerOf(await session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 1 } }))).toEqual({ notices: [] });
  } finally {
    await session.client.close();
  }
  const after = await cursorsOf(db);
  expect(after.find((row) => row.watcher === MANAGER)).toMatchObject({ acked: 3, pending: false });
  expect(after.find((row) => row.watcher === OPS)).toEqual(before.find((row) => row.watcher === OPS));
  expect(before.find((row) => row.watcher === OPS)).toMatchObject({ notified: 2, material: 3, pending: true });
});

test('notices are attached to the next answer once, confirmed when it is written; a bad timeout is a tool error', async () => {
  const db = await withPendingNotices();
  const session = await connect(['--db', db, '--reader', MANAGER]);
  try {
    const first = await session.client.callTool({ name: 'sessions_list', arguments: { sessionKeys: [CHILD] } });
    expect(noticesOf(first)).toEqual([{ watcher: MANAGER, target: CHILD, changesSince: 1, text: specNotice(CHILD, 1) }]);
    expect(first.structuredContent).toMatchObject({ sessions: [{ sessionKey: CHILD, stateVersion: 3 }] });

    const bad = await session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 301 } });
    expect(bad.isError).toBe(true);
    expect(noticesOf(bad)).toEqual([]);
    expect(bad.structuredContent).toMatchObject({ error: { code: 'invalid_input', field: 'notices_wait.timeoutSeconds' } });
    expect(await confirmedFor(db)).toMatchObject({ acked: 3, pending: false });
    expect(session.stderr()).toBe('');
  } finally {
    await session.client.close();
  }
});

test('a cancelled notices_wait rejects at once on the client, and the server goes on serving', async () => {
  const db = await withPendingNotices();
  const session = await connect(['--db', db, '--reader', OPS]);
  try {
    // OPS's notice goes to the first answer; then nothing is pending and the wait would last 300 s.
    expect(noticesOf(await session.client.callTool({ name: 'sessions_list', arguments: { sessionKeys: [] } }))).toHaveLength(1);
    const cancel = new AbortController();
    const waiting = session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 300 } }, { signal: cancel.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    cancel.abort();

    await expect(waiting).rejects.toThrow();
    expect(answerOf(await session.client.callTool({ name: 'sessions_list', arguments: { sessionKeys: [CHILD] } }))).toEqual({ sessions: [{ sessionKey: CHILD, stateVersion: 3 }] });
  } finally {
    await session.client.close();
  }
});

test('a server that took a notice and died before its answer was written gives it back: the next server answers it, once', async () => {
  const db = await withPendingNotices();
  const server = spawn(process.execPath, [CLI_MAIN, 'mcp', '--db', db, '--reader', MANAGER, '--notice-lease', '2s'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = readline.createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  const send = (message: object): void => void server.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'crash', version: '0' } } });
  expect(JSON.parse(String((await lines.next()).value))).toMatchObject({ id: 1, result: { serverInfo: { name: 'session-state' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // Its reader goes away: the answer that takes the notice cannot be written.
  server.stdout.destroy();
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sessions_list', arguments: { sessionKeys: [] } } });
  await once(server, 'exit');

  type Step = { event: { type: string } };
  const steps = jsonOf<{ steps: Step[] }>(await runCli(['explain', MANAGER, CHILD, '--json', '--db', db])).steps.map((step) => step.event.type);
  expect(steps.slice(-2)).toEqual(['notice_recovered', 'notice_taken']);
  expect((await cursorsOf(db)).find((row) => row.watcher === MANAGER)).toMatchObject({ pending: true });

  const session = await connect(['--db', db, '--reader', MANAGER]);
  try {
    expect(answerOf(await session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 5 } }))).toMatchObject({ notices: [{ target: CHILD, changesSince: 1 }] });
  } finally {
    await session.client.close();
  }
  expect(runHook('claude-code', MANAGER, ['--db', db], USER_PROMPT_SUBMIT)).toEqual({ status: 0, stdout: '', stderr: '' });
});

describeCrossProcessNotices('a SQLite file', () => {
  const db = path.join(suite.path, 'shared.db');
  return { args: ['--db', db], openGateway: () => createSessionStateAwareness({ store: openSqliteStore({ path: db }), logger: silent, startup: { restartScan: false, prune: 'off' } }) };
});
