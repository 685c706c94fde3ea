// A write command that creates a store says so, and --no-create refuses to (a mistyped --db must
// not make a new file without a word); a --db that names a directory says so (issue 16 item 1).
import fs from 'node:fs';
import path from 'node:path';

import { runCli, suiteTempDir } from './support/runCli.js';

const KEY = 'agent:main:main';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];

const suite = suiteTempDir();

test('record on a new file says on stderr that it created it, once: the next record says nothing', async () => {
  const first = await runCli([...RECORD, '--db', 'typo-sesion-state.db'], {}, suite.path);
  expect(first.status).toBe(0);
  expect(first.stderr).toBe('created a new state file at typo-sesion-state.db\n');
  expect(first.stdout).toMatch(/^recorded #1 /u);
  const second = await runCli([...RECORD, '--db', 'typo-sesion-state.db'], {}, suite.path);
  expect(second.status).toBe(0);
  expect(second.stderr).toBe('');
});

test('record --no-create on a missing file refuses (exit 2), names --db and creates nothing', async () => {
  const run = await runCli([...RECORD, '--no-create', '--db', 'missing.db'], {}, suite.path);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('error: --db: no state file at missing.db; --no-create refuses to create one (check the path)\n');
  expect(fs.readdirSync(suite.path).filter((name) => name.startsWith('missing'))).toEqual([]);
});

test('record --no-create on an existing file records as usual', async () => {
  await runCli([...RECORD, '--db', 'existing.db'], {}, suite.path);
  const run = await runCli([...RECORD, '--no-create', '--db', 'existing.db'], {}, suite.path);
  expect(run.status).toBe(0);
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(/^recorded #2 /u);
});

test.each([
  ['record', RECORD],
  ['status', ['status', KEY]],
])('%s with a --db ending in a slash says it names a directory and creates nothing', async (_name, args) => {
  const run = await runCli([...args, '--db', 'newfolder/'], {}, suite.path);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('error: --db: newfolder/ names a directory (it ends in a slash), not a state file; name a file in it, such as newfolder/session-state.db\n');
  expect(fs.existsSync(path.join(suite.path, 'newfolder'))).toBe(false);
});

test.each([
  ['record', RECORD],
  ['status', ['status', KEY]],
])('%s with a --db under a regular file says the file is not a directory', async (_name, args) => {
  fs.writeFileSync(path.join(suite.path, 'notes.txt'), 'x');
  const run = await runCli([...args, '--db', 'notes.txt/s.db'], {}, suite.path);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('error: --db: notes.txt/s.db cannot be a state file: notes.txt on its path is a file, not a directory\n');
});

test('status with a --db naming an existing directory says it is a directory, not that there is no state file', async () => {
  fs.mkdirSync(path.join(suite.path, 'afolder'));
  const run = await runCli(['status', KEY, '--db', 'afolder'], {}, suite.path);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('error: --db: afolder is a directory, not a state file\n');
});
