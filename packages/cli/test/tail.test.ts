// `tail` follows events appended by another process until it is interrupted. It runs the built
// bin as a child, since SIGINT goes to a process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, tempDir } from './support/runCli.js';
import { exitOf, waitFor } from './support/childOutput.js';

const KEY = 'agent:main:subagent:researcher';

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function record(db: string, summary: string): Promise<number> {
  const result = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', summary, '--json', '--db', db]);
  expect(result.status).toBe(0);
  return jsonOf<{ event: { sequence: number } }>(result).event.sequence;
}

test.each([['human'], ['json']])('tail (%s) prints events another process appends, from the head, and exits 0 on SIGINT', async (form) => {
  const db = path.join(dir, `tail-${form}.db`);
  const old = await record(db, 'before the tail started');
  const child = spawn(process.execPath, [CLI_MAIN, 'tail', KEY, '--db', db, ...(form === 'json' ? ['--json'] : [])]);
  const exited = exitOf(child);
  await waitFor(child.stderr, (text) => text.includes('following'));
  const stdout = waitFor(child.stdout, (text) => text.split('\n').length > 2);
  const first = await record(db, 'first while tailing');
  const second = await record(db, 'second while tailing');
  const lines = (await stdout).trimEnd().split('\n');
  child.kill('SIGINT');
  expect(await exited).toBe(0);

  if (form === 'json') {
    const events = lines.map((line) => JSON.parse(line) as { sessionKey: string; sequence: number; summary: string });
    expect(events.map((event) => [event.sessionKey, event.sequence, event.summary])).toEqual([
      [KEY, first, 'first while tailing'],
      [KEY, second, 'second while tailing'],
    ]);
  } else {
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^#${first}  \\S+  goal_changed  human  first while tailing$`, 'u'));
    expect(lines[1]).toMatch(new RegExp(`^#${second}  \\S+  goal_changed  human  second while tailing$`, 'u'));
  }
  expect(lines.join('\n')).not.toContain(`#${old} `);
});
