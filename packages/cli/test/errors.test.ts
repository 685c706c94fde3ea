// Every error path of the CLI: exit status 2 with one line naming the argument, read commands
// never create a missing state file, and a rejected command writes nothing.
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { jsonOf, runCli, tempDir, type CliRun } from './support/runCli.js';
import { dumpTables, hashFileAndWal } from './support/stateFile.js';

// Not one of the demo's sessions, so `demo` must refuse to remove this file.
const KEY = 'agent:main:subagent:worker';

let dir: string;
let db: string;
let seededVersion: number;

beforeAll(async () => {
  dir = tempDir();
  db = path.join(dir, 'state.db');
  const seeded = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'first goal', '--json', '--db', db]);
  expect(seeded.status).toBe(0);
  seededVersion = jsonOf<{ event: { sequence: number } }>(seeded).event.sequence;
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectUsageError(run: CliRun, argument: string): void {
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(argument);
}

/** Runs a command that must be rejected and checks it left the state file's bytes and rows as they were. */
async function expectRejectedWithoutWriting(args: readonly string[], argument: string, env: Readonly<Record<string, string>> = {}): Promise<CliRun> {
  const rowsBefore = dumpTables(db);
  const bytesBefore = hashFileAndWal(db);
  const run = await runCli(args, env);
  expectUsageError(run, argument);
  expect(hashFileAndWal(db)).toBe(bytesBefore);
  expect(dumpTables(db)).toEqual(rowsBefore);
  return run;
}

async function versionOf(file: string): Promise<number | undefined> {
  return jsonOf<{ stateVersion: number }>(await runCli(['status', KEY, '--json', '--db', file])).stateVersion;
}

describe('bad arguments exit 2 with one line naming the argument', () => {
  test.each([
    ['a session key with a space', ['status', 'has space'], 'sessionKey'],
    ['a negative --since', ['status', KEY, '--since', '-1'], '--since'],
    ['a non-numeric --since', ['status', KEY, '--since', 'abc'], '--since'],
    ['--limit 0', ['status', KEY, '--since', '0', '--limit', '0'], '--limit'],
    ['--limit 201', ['status', KEY, '--since', '0', '--limit', '201'], '--limit'],
    ['--limit without --since', ['status', KEY, '--limit', '5'], '--limit'],
    ['a missing session key', ['status'], 'sessionKey'],
    ['an unknown option', ['status', KEY, '--bogus'], '--bogus'],
    ['an unknown command', ['frobnicate'], 'frobnicate'],
    ['a bad key in list', ['list', 'ok-key', 'bad"key'], 'keys'],
    ['a bad --watcher', ['cursors', '--watcher', ''], '--watcher'],
    ['a bad --target', ['cursors', '--target', 'a b'], '--target'],
    ['a bad --max-age', ['prune', '--max-age', '30x'], '--max-age'],
    ['a zero --max-rows', ['prune', '--max-rows', '0'], '--max-rows'],
    ['a bad tail --since', ['tail', KEY, '--since', '1.5'], '--since'],
    ['a bad explain watcher', ['explain', 'a b', KEY], '<watcher>'],
    ['an empty explain target', ['explain', KEY, ''], '<target>'],
    ['a missing explain target', ['explain', KEY], 'target'],
  ])('%s, leaving the file as it was', async (_name, args, argument) => {
    await expectRejectedWithoutWriting([...args, '--db', db], argument);
  });

  test.each([
    ['an unknown --kind', ['--kind', 'gossip', '--actor', 'human', '--summary', 's'], '--kind'],
    ['an unknown --actor', ['--kind', 'goal_changed', '--actor', 'robot', '--summary', 's'], '--actor'],
    ['a bad --by', ['--kind', 'goal_changed', '--actor', 'agent', '--by', 'a b', '--summary', 's'], '--by'],
    ['an empty --summary', ['--kind', 'goal_changed', '--actor', 'human', '--summary', ' \t '], '--summary'],
    ['a missing --summary', ['--kind', 'goal_changed', '--actor', 'human'], '--summary'],
    ['--payload that is not JSON', ['--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--payload', '{nope'], '--payload'],
    ['--payload that is an array', ['--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--payload', '[1]'], '--payload'],
    ['run_failed without an outcome', ['--kind', 'run_failed', '--actor', 'system', '--summary', 's', '--payload', '{}'], '--payload'],
  ])('record with %s, leaving the file as it was', async (_name, args, argument) => {
    await expectRejectedWithoutWriting(['record', KEY, ...args, '--db', db], argument);
  });

  test('the seeded session still has its version after all of them', async () => {
    expect(await versionOf(db)).toBe(seededVersion);
  });

  test('SESSION_STATE_DB names the file when --db is absent', async () => {
    const run = await runCli(['status', KEY, '--json'], { SESSION_STATE_DB: db });
    expect(run.status).toBe(0);
    expect(jsonOf<{ stateVersion: number }>(run).stateVersion).toBe(seededVersion);
  });
});

describe('no command, and an empty state file path', () => {
  test('no command prints the help and exits 2, writing nothing', async () => {
    const run = await runCli(['--db', db]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: session-state');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(/^error: .*command/u);
  });

  test.each([['--help'], ['help']])('an explicit %s prints the help and exits 0', async (flag) => {
    const run = await runCli([flag]);
    expect(run.status).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('Usage: session-state');
  });

  const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];
  test.each([
    ['record', RECORD],
    ['demo', ['demo']],
    ['status', ['status', KEY]],
    ['prune', ['prune']],
  ])('an empty --db or SESSION_STATE_DB is a usage error for %s, before any output', async (_name, args) => {
    const flag = await runCli([...args, '--db', '']);
    expectUsageError(flag, '--db');
    expect(flag.stderr).toContain('empty');
    const fromEnv = await runCli(args, { SESSION_STATE_DB: '' });
    expectUsageError(fromEnv, '--db');
    expect(fromEnv.stderr).toContain('SESSION_STATE_DB');
  });

  test('demo refuses an in-memory database, which would leave nothing to inspect', async () => {
    expectUsageError(await runCli(['demo', '--db', ':memory:']), '--db');
  });
});

describe('a storage failure', () => {
  test('exits 1 with one line saying what failed', async () => {
    const broken = path.join(dir, 'broken.db');
    expect((await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'x', '--db', broken])).status).toBe(0);
    const raw = new Database(broken);
    raw.exec('DROP TABLE events');
    raw.close();
    const run = await runCli(['status', KEY, '--since', '0', '--db', broken]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: cannot open the state file .*broken\.db: .*no such table: events$/u)]);
  });
});

describe('a missing or foreign state file', () => {
  test.each([
    ['status', ['status', KEY]],
    ['status --since', ['status', KEY, '--since', '0', '--json']],
    ['list', ['list']],
    ['cursors', ['cursors', '--json']],
    ['explain', ['explain', KEY, KEY, '--json']],
    ['prune', ['prune']],
    ['tail', ['tail', KEY]],
  ])('%s says so, exits 2 and creates nothing', async (_name, args) => {
    const missing = path.join(dir, `missing-${_name.replace(/\W/gu, '')}.db`);
    const run = await runCli([...args, '--db', missing]);
    expectUsageError(run, '--db');
    expect(run.stderr).toContain('no state file');
    expect(fs.existsSync(missing)).toBe(false);
  });

  test('a rejected record does not create the file', async () => {
    const missing = path.join(dir, 'never.db');
    expectUsageError(await runCli(['record', KEY, '--kind', 'nope', '--actor', 'human', '--summary', 's', '--db', missing]), '--kind');
    expect(fs.existsSync(missing)).toBe(false);
  });

  test('a read command on a file that is not a state file refuses it and leaves it as it was', async () => {
    const other = path.join(dir, 'plain.sqlite');
    const plain = new Database(other);
    plain.exec('CREATE TABLE notes (body TEXT)');
    plain.close();
    const before = fs.readFileSync(other);
    expectUsageError(await runCli(['status', KEY, '--db', other]), '--db');
    expect(fs.readFileSync(other).equals(before)).toBe(true);
  });

  test.each([
    ['a SQLite file of another program', (file: string) => {
      const plain = new Database(file);
      plain.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
      plain.close();
    }],
    ['a file that is not SQLite at all', (file: string) => fs.writeFileSync(file, 'not sqlite at all')],
  ])('record refuses %s and leaves it byte for byte as it was', async (name, make) => {
    const other = path.join(dir, `foreign-${name.replace(/\W/gu, '')}.db`);
    make(other);
    const before = hashFileAndWal(other);
    const run = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', other]);
    expectUsageError(run, '--db');
    expect(run.stderr).toContain('not a session-state file');
    expect(hashFileAndWal(other)).toBe(before);
    expect(fs.existsSync(`${other}-wal`)).toBe(false);
  });

  test('record accepts an existing empty file and makes it a state file', async () => {
    const empty = path.join(dir, 'empty.db');
    fs.writeFileSync(empty, '');
    const run = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--json', '--db', empty]);
    expect(run.status).toBe(0);
    expect(await versionOf(empty)).toBe(jsonOf<{ event: { sequence: number } }>(run).event.sequence);
  });

  test('a file that is not a state file is reported, not overwritten by demo', async () => {
    const other = path.join(dir, 'notes.db');
    fs.writeFileSync(other, 'not sqlite at all');
    expectUsageError(await runCli(['demo', '--db', other]), '--db');
    expect(fs.readFileSync(other, 'utf8')).toBe('not sqlite at all');
  });

  test('demo refuses a state file holding sessions other than its own', async () => {
    expectUsageError(await runCli(['demo', '--db', db]), '--db');
    expect(await versionOf(db)).toBe(seededVersion);
  });
});
