// Every kind of --db that is not a usable state file gets its own one-line message and exit
// status, at once: a FIFO, a directory, a socket or a device (exit 2, never opened, so a FIFO
// cannot hang the command), a file or folder without write access and a read-only file system
// (exit 1, said as such, never "not a session-state file"), and a failed append (one line).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import Database from 'better-sqlite3';

import { openToEveryone, runCliAsOtherUser } from './support/otherUser.js';
import { requireBuiltCli, runCli, spawnCli, tempDir, type CliRun } from './support/runCli.js';

const KEY = 'agent:main:main';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];
const COMMANDS: [string, string[]][] = [
  ['status', ['status', KEY]],
  ['list', ['list']],
  ['cursors', ['cursors']],
  ['explain', ['explain', KEY, KEY]],
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

/**
 * Runs `work` while the file system answers a write check (`accessSync` with W_OK) on `target`
 * with `code`: a failure a test cannot cause for real without privileges (mounting a read-only
 * file system).
 */
async function withWriteCheckFailing<T>(target: string, code: string, work: () => Promise<T>): Promise<T> {
  const original = fs.accessSync;
  const faked = jest.spyOn(fs, 'accessSync').mockImplementation((file, mode) => {
    if (mode !== undefined && (mode & fs.constants.W_OK) !== 0 && path.resolve(String(file)) === path.resolve(target)) {
      throw Object.assign(new Error(`${code}: faked by the test, access '${String(file)}'`), { code, syscall: 'access', path: String(file) });
    }
    original.call(fs, file, mode);
  });
  try {
    return await work();
  } finally {
    faked.mockRestore();
  }
}

function oneErrorLine(run: CliRun): string {
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
}

// The FIFO runs in a child: a command that opened it would block its thread for ever, which
// spawnSync's 30 s timeout ends (status null) but which would hang this test process.
describe.each([
  ['a FIFO', () => path.join(dir, 'fifo'), 'a FIFO (named pipe)', (args: readonly string[]) => Promise.resolve(spawnCli(args))],
  ['a directory', () => path.join(dir, 'folder'), 'a directory', runCli],
  ['a socket', () => socketPath, 'a socket', runCli],
  ['a character device', () => '/dev/null', 'a character device', runCli],
])('--db naming %s', (_name, target, what, runner) => {
  test.each(COMMANDS)('%s refuses it at once with exit 2, naming what it is', async (_command, args) => {
    const run = await runner([...args, '--db', target()]);
    expect(run.status).toBe(2);
    expect(oneErrorLine(run)).toMatch(/^error: --db: /u);
    expect(oneErrorLine(run)).toContain(`${target()} is ${what}, not a state file`);
  });
});

describe('write access', () => {
  let stateFile: string;
  beforeAll(async () => {
    stateFile = path.join(dir, 'state.db');
    expect((await runCli([...RECORD, '--db', stateFile])).status).toBe(0);
  });

  test.each([
    ['record', RECORD],
    ['prune', ['prune']],
  ])('%s on a file the user may read but not write exits 1 saying permission denied', async (_name, args) => {
    const before = fs.readFileSync(stateFile);
    const run = await runCliAsOtherUser([...args, '--db', stateFile]);
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the state file ${stateFile}: permission denied (EACCES)`);
    expect(fs.readFileSync(stateFile).equals(before)).toBe(true);
  });

  test('record in a folder the user may not write exits 1 naming the folder, and creates nothing', async () => {
    const locked = path.join(dir, 'locked');
    fs.mkdirSync(locked);
    fs.chmodSync(locked, 0o555);
    const target = path.join(locked, 'new.db');
    const run = await runCliAsOtherUser([...RECORD, '--db', target]);
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the folder ${locked} (SQLite keeps the -wal and -shm files of ${target} there): permission denied (EACCES)`);
    expect(fs.readdirSync(locked)).toEqual([]);
  });

  test.each([
    ['the file', () => stateFile, (file: string) => `error: cannot write the state file ${file}: it is on a read-only file system (EROFS)`],
    ['its folder', () => dir, (file: string) => `error: cannot write the folder ${dir} (SQLite keeps the -wal and -shm files of ${file} there): it is on a read-only file system (EROFS)`],
  ])('record on a read-only file system (EROFS faked on %s) exits 1 saying so', async (_name, fakedPath, expected) => {
    const run = await withWriteCheckFailing(fakedPath(), 'EROFS', () => runCli([...RECORD, '--db', stateFile]));
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(expected(stateFile));
  });

  test('a read command on a read-only file system reads (it writes nothing)', async () => {
    const run = await withWriteCheckFailing(dir, 'EROFS', () => runCli(['status', KEY, '--db', stateFile]));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

// `demo` creates its file as `record` does, and says as `record` does why it cannot: which
// option or file, which path, and the reason, never only the driver's words.
describe.each([
  ['record', RECORD],
  ['demo', ['demo']],
])('%s on a --db it cannot create', (_name, args) => {
  test('a folder that does not exist: exit 2, naming --db, the path and the folder', async () => {
    const target = path.join(dir, 'no-such-folder', 'new.db');
    const run = await runCli([...args, '--db', target]);
    expect(run.status).toBe(2);
    expect(oneErrorLine(run)).toBe(`error: --db: cannot create ${target}: the folder ${path.dirname(target)} does not exist`);
  });

  test('a path under a file: exit 2, naming --db, the path and the file on it', async () => {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'not a folder');
    const target = path.join(notes, 'new.db');
    const run = await runCli([...args, '--db', target]);
    expect(run.status).toBe(2);
    expect(oneErrorLine(run)).toBe(`error: --db: ${target} cannot be a state file: ${notes} on its path is a file, not a directory`);
  });

  test('a folder the user may not write: exit 1, naming the folder, the path and the reason, creating nothing', async () => {
    const locked = fs.mkdtempSync(path.join(dir, 'locked-'));
    fs.chmodSync(locked, 0o555);
    const target = path.join(locked, 'new.db');
    const run = await runCliAsOtherUser([...args, '--db', target]);
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the folder ${locked} (SQLite keeps the -wal and -shm files of ${target} there): permission denied (EACCES)`);
    expect(fs.readdirSync(locked)).toEqual([]);
  });

  test('a read-only file system (EROFS faked on the folder): exit 1 saying so', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'rofs-'));
    const target = path.join(folder, 'new.db');
    const run = await withWriteCheckFailing(folder, 'EROFS', () => runCli([...args, '--db', target]));
    expect(run.status).toBe(1);
    expect(oneErrorLine(run)).toBe(`error: cannot write the folder ${folder} (SQLite keeps the -wal and -shm files of ${target} there): it is on a read-only file system (EROFS)`);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});

test('a failed append transaction prints one error line, exit 1', async () => {
  const db = path.join(dir, 'aborting.db');
  expect((await runCli([...RECORD, '--db', db])).status).toBe(0);
  const raw = new Database(db);
  raw.exec("CREATE TRIGGER refuse BEFORE UPDATE ON heads BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END");
  raw.close();
  const run = await runCli([...RECORD, '--db', db]);
  expect(run.status).toBe(1);
  expect(oneErrorLine(run)).toMatch(/^error: .*refused by a trigger/u);
});
