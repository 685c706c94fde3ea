// The built bin as a user runs it, in a child process: it starts, prints its help, and ends with
// exit status 0, 1 or 2 as the outcome asks; it reads SESSION_STATE_DB from its environment and
// resolves a relative --db against its working directory. Everything else about the commands is
// tested in process through main(argv, io); these check the wiring of the bin to the process.
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { jsonOf, requireBuiltCli, spawnCli, tempDir } from './support/runCli.js';

const KEY = 'agent:main:main';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--json'];

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('--help prints the usage on stdout and exits 0', () => {
  const run = spawnCli(['--help']);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('Usage: session-state');
  expect(run.stdout).toContain('Exit status:');
  expect(run.stderr).toBe('');
});

test('no command prints the help on stderr and exits 2', () => {
  const run = spawnCli([]);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain('Usage: session-state');
  expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: .*command/u);
});

test('a bad argument exits 2 with one error line', () => {
  const run = spawnCli(['status', 'has space', '--db', path.join(dir, 'never.db')]);
  expect(run.status).toBe(2);
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: <sessionKey>: /u)]);
});

test('a storage failure exits 1 with one error line', () => {
  const broken = path.join(dir, 'broken.db');
  expect(spawnCli([...RECORD, '--db', broken]).status).toBe(0);
  const raw = new Database(broken);
  raw.exec('DROP TABLE events');
  raw.close();
  const run = spawnCli(['status', KEY, '--since', '0', '--db', broken]);
  expect(run.status).toBe(1);
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: cannot open the state file .*broken\.db: /u)]);
});

test('record then status through the process: SESSION_STATE_DB names the file, a relative --db starts at the working directory', () => {
  const recorded = spawnCli([...RECORD, '--db', 'relative.db'], {}, dir);
  expect(recorded.stderr).toBe('created a new state file at relative.db\n');
  expect(recorded.status).toBe(0);
  expect(fs.existsSync(path.join(dir, 'relative.db'))).toBe(true);
  const status = spawnCli(['status', KEY, '--json'], { SESSION_STATE_DB: path.join(dir, 'relative.db') });
  expect(status.status).toBe(0);
  expect(jsonOf<{ stateVersion: number }>(status).stateVersion).toBe(jsonOf<{ event: { sequence: number } }>(recorded).event.sequence);
});
