// The CLI on a pipe whose reader has gone (`list | head -1`) ends quietly with exit 0, and
// `tail` stops with exit 1 and says so when the file it follows is removed or replaced
// (issue 12 item 15). These run the built bin as a child: only a real process has a stdout pipe
// whose reader can go, and a tail that runs until something stops it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { exitOf, waitFor } from './support/childOutput.js';
import { CLI_MAIN, requireBuiltCli, runCli, tempDir } from './support/runCli.js';

const KEY = 'agent:main:main';

let dir: string;
let db: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir();
  db = path.join(dir, 'state.db');
  for (let i = 0; i < 3; i += 1) {
    expect((await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', `goal ${i}`, '--db', db])).status).toBe(0);
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Spawns the CLI with its stdout a pipe whose read end is closed at once; resolves with its exit code and stderr. */
async function withClosedStdout(args: readonly string[]): Promise<{ readonly code: number | null; readonly stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stderr };
}

test.each([
  ['list', ['list']],
  ['list --json', ['list', '--json']],
  ['cursors --json', ['cursors', '--json']],
  ['status --since 0', ['status', KEY, '--since', '0']],
  ['tail --since 0', ['tail', KEY, '--since', '0']],
])('%s with a closed stdout ends quietly with exit 0', async (_name, args) => {
  const { code, stderr } = await withClosedStdout([...args, '--db', db]);
  expect(stderr).not.toMatch(/EPIPE|Error|at /u);
  expect(code).toBe(0);
});

test.each([
  ['removed', (file: string) => {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  }, 'was removed'],
  ['replaced', async (file: string) => {
    const other = `${file}.new`;
    expect((await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'other', '--db', other])).status).toBe(0);
    fs.renameSync(other, file);
  }, 'was replaced by another file'],
])('tail stops with exit 1 when the file it follows is %s', async (name, change, said) => {
  const file = path.join(dir, `followed-${name}.db`);
  expect((await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', file])).status).toBe(0);
  const child = spawn(process.execPath, [CLI_MAIN, 'tail', KEY, '--db', file]);
  const exited = exitOf(child);
  await waitFor(child.stderr, (text) => text.includes('following'));
  const stderr = waitFor(child.stderr, (text) => text.includes(said));
  await change(file);
  expect(await stderr).toContain(`error: the state file ${file} ${said}`);
  expect(await exited).toBe(1);
});
