// `inspect` serves the live inspector page of a store until interrupted. Its argument errors are
// checked in process; serving runs the built bin as a child, since SIGINT and SIGTERM go to a
// process. (The page itself is tested in a real browser in packages/inspector/test.)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { CLI_MAIN, requireBuiltCli, runCli, tempDir } from './support/runCli.js';
import { exitOf, waitFor } from './support/childOutput.js';
import { hashFileAndWal } from './support/stateFile.js';

const KEY = 'agent:main:subagent:researcher';

const dir = tempDir();
const db = path.join(dir, 'state.db');

beforeAll(async () => {
  requireBuiltCli();
  expect((await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'goal set', '--db', db])).status).toBe(0);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each([['SIGINT'], ['SIGTERM']] as const)('serves the page on the URL it prints, writes nothing, and exits 0 on %s', async (signal) => {
  const before = hashFileAndWal(db);
  const child = spawn(process.execPath, [CLI_MAIN, 'inspect', '--port', '0', '--db', db]);
  const exited = exitOf(child);
  let status: number | null;
  try {
    const url = (await waitFor(child.stdout, (text) => text.endsWith('\n'))).trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/u);
    const overview = (await (await fetch(new URL('/api/overview', url))).json()) as { label: string; overview: { graph: { sessions: { id: string; head: number }[] } } };
    expect(overview.label).toBe(db);
    expect(overview.overview.graph.sessions).toEqual([expect.objectContaining({ id: KEY, head: 1 })]);
    // /metrics is the Prometheus registry over this store: the pending-pairs gauge read from it.
    const metrics = await fetch(new URL('/metrics', url));
    expect(metrics.status).toBe(200);
    const metricsText = await metrics.text();
    expect(metricsText).toMatch(/^session_state_pending_pairs 0$/mu);
    // Only what describes the store: the facade's counters and queue depth belong to a gateway's process.
    expect(metricsText.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.split(' ')[0])).toEqual(['session_state_pending_pairs']);
    // Read-only while serving too: a writer's connection would keep a -wal and -shm beside the file.
    expect([fs.existsSync(`${db}-wal`), fs.existsSync(`${db}-shm`)]).toEqual([false, false]);
  } finally {
    child.kill(signal);
    status = await exited;
  }
  expect(status).toBe(0);
  expect(hashFileAndWal(db)).toBe(before);
  expect(fs.existsSync(`${db}-shm`)).toBe(false);
});

test('a non-loopback --host says plainly at start that the store is readable from the network; the default says nothing of it', async () => {
  for (const [args, warned] of [
    [['--host', '0.0.0.0'], true],
    [[], false],
  ] as const) {
    const child = spawn(process.execPath, [CLI_MAIN, 'inspect', '--port', '0', ...args, '--db', db]);
    const exited = exitOf(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    try {
      const url = (await waitFor(child.stdout, (text) => text.endsWith('\n'))).trim();
      // The printed address is one a browser can open, and it is answered.
      expect((await fetch(new URL('/api/health', url))).status).toBe(200);
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
    expect(stderr.includes('is not a loopback address: the store (session keys, pending notices, summaries, payloads) is readable from the network')).toBe(warned);
  }
});

test("Ctrl-C with a page's event stream open ends the stream and exits 0", async () => {
  const child = spawn(process.execPath, [CLI_MAIN, 'inspect', '--port', '0', '--db', db]);
  const exited = exitOf(child);
  const url = (await waitFor(child.stdout, (text) => text.endsWith('\n'))).trim();
  const response = await fetch(new URL('/api/events', url));
  const reader = response.body?.getReader();
  expect((await reader?.read())?.done).toBe(false);
  child.kill('SIGINT');
  // The server ends the stream itself (an end or a closed socket), then the process exits.
  for (;;) {
    const chunk = await reader?.read().catch(() => undefined);
    if (chunk === undefined || chunk.done) break;
  }
  expect(await exited).toBe(0);
});

test.each([
  [['--port', '70000'], '--port: expected a port from 0 (any free one) to 65535'],
  [['--port', 'http'], '--port: expected a port from 0 (any free one) to 65535'],
  [['--host', 'a b'], '--host: expected a host name or IP address'],
])('refuses %j with a usage error naming the option', async (args, message) => {
  const result = await runCli(['inspect', ...args, '--db', db]);
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stdout).toBe('');
});

test('refuses a missing state file without creating one', async () => {
  const missing = path.join(dir, 'missing.db');
  const result = await runCli(['inspect', '--port', '0', '--db', missing]);
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('no state file at');
  expect(fs.existsSync(missing)).toBe(false);
});

test('a port in use is a usage error naming --port', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as net.AddressInfo;
  try {
    const result = await runCli(['inspect', '--port', String(port), '--db', db]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--port: port ${port} on 127.0.0.1 is in use (EADDRINUSE)`);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test('the other commands never load the inspector package or its server', () => {
  // The built tool in a fresh process: run `list`, then look at every module Node has loaded.
  const script = `
    const { main } = require(${JSON.stringify(path.resolve(__dirname, '..', 'dist', 'main.js'))});
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: process.cwd(), onInterrupt: () => () => undefined };
    main(['list', '--db', ${JSON.stringify(db)}], io).then((status) => {
      const loaded = Object.keys(require.cache).filter((file) => /[\\\\/](packages[\\\\/]inspector|hono|@hono|cytoscape)[\\\\/]/.test(file));
      process.stdout.write(JSON.stringify({ status, loaded }));
    });
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(JSON.parse(result.stdout)).toEqual({ status: 0, loaded: [] });
});
