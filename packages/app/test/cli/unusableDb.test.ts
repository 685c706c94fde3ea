// Every kind of --db that is not a usable state file gets its own one-line message and exit
// status, at once: a FIFO, a directory, a socket or a device (exit 2, never opened, so a FIFO
// cannot hang the command), a file or folder without write access and a read-only file system
// (exit 1, said as such, never "not a session-state file"), and a failed append (one line).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import Database from 'better-sqlite3';

import { openToEveryone, runCliAsOtherUser } from './support/otherUser';
import { requireBuiltCli, runCli, tempDir, type CliRun } from './support/runCli';

const KEY = 'agent:main:main';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];
const COMMANDS: [string, string[]][] = [
  ['status', ['status', KEY]],
  ['list', ['list']],
  ['cursors', ['cursors']],
  ['tail', ['tail', KEY]],
  ['prune', ['prune']],
  ['record', RECORD],
  ['demo', ['demo']],
];

let dir: string;
let socketServer: net.Server;
let socketPath: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir();
  openToEveryone(dir);
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  fs.mkdirSync(path.join(dir, 'folder'));
  socketPath = path.join(dir, 'socket');
  socketServer = net.createServer();
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
});

afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

function oneErrorLine(run: CliRun): string {
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

describe.each([
  ['a FIFO', () => path.join(dir, 'fifo'), 'a FIFO (named pipe)'],
  ['a directory', () => path.join(dir, 'folder'), 'a directory'],
  ['a socket', () => socketPath, 'a socket'],
  ['a character device', () => '/dev/null', 'a character device'],
])('--db naming %s', (_name, target, what) => {
  test.each(COMMANDS)('%s refuses it at once with exit 2, naming what it is', (_command, args) => {
    // spawnSync's 30 s timeout would end a hanging child with status null.
    const run = runCli([...args, '--db', target()]);
    expect(run.status).toBe(2);
    expect(oneErrorLine(run)).toMatch(/^error: --db: /u);
    expect(oneErrorLine(run)).toContain(`${target()} is ${what}, not a state file`);
  });
});

describe('write access', () => {
  let stateFile: string;
  beforeAll(() => {
    stateFile = path.join(dir, 'state.db');
    expect(runCli([...RECORD, '--db', stateFile]).status).toBe(0);
  });

  test.each([
    ['record', RECORD],
    ['prune', ['prune']],
  ])('%s on a file the user may read but not write exits 1 saying permission denied', (_name, args) => {
    const before = fs.readFileSync(stateFile);
    const run = runCliAsOtherUser([...args, '--db', stateFile]);
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the state file ${stateFile}: permission denied (EACCES)`);
    expect(fs.readFileSync(stateFile).equals(before)).toBe(true);
  });

  test('record in a folder the user may not write exits 1 naming the folder, and creates nothing', () => {
    const locked = path.join(dir, 'locked');
    fs.mkdirSync(locked);
    fs.chmodSync(locked, 0o555);
    const target = path.join(locked, 'new.db');
    const run = runCliAsOtherUser([...RECORD, '--db', target]);
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the folder ${locked} (SQLite keeps the -wal and -shm files of ${target} there): permission denied (EACCES)`);
    expect(fs.readdirSync(locked)).toEqual([]);
  });

  test.each([
    ['the file', () => stateFile, (file: string) => `error: cannot write the state file ${file}: it is on a read-only file system (EROFS)`],
    ['its folder', () => dir, (file: string) => `error: cannot write the folder ${dir} (SQLite keeps the -wal and -shm files of ${file} there): it is on a read-only file system (EROFS)`],
  ])('record on a read-only file system (EROFS faked on %s) exits 1 saying so', (_name, fakedPath, expected) => {
    const run = runCli([...RECORD, '--db', stateFile], {
      NODE_OPTIONS: `--require ${path.join(__dirname, 'support', 'fakeErrno.js')}`,
      FAKE_ERRNO_PATH: fakedPath(),
      FAKE_ERRNO: 'EROFS',
    });
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(expected(stateFile));
  });

  test('a read command on a read-only file system reads (it writes nothing)', () => {
    const run = runCli(['status', KEY, '--db', stateFile], {
      NODE_OPTIONS: `--require ${path.join(__dirname, 'support', 'fakeErrno.js')}`,
      FAKE_ERRNO_PATH: dir,
      FAKE_ERRNO: 'EROFS',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

test('a failed append transaction prints one error line, exit 1', () => {
  const db = path.join(dir, 'aborting.db');
  expect(runCli([...RECORD, '--db', db]).status).toBe(0);
  const raw = new Database(db);
  raw.exec("CREATE TRIGGER refuse BEFORE UPDATE ON heads BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END");
  raw.close();
  const run = runCli([...RECORD, '--db', db]);
  expect(run.status).toBe(1);
  expect(oneErrorLine(run)).toMatch(/^error: .*refused by a trigger/u);
});
