// Read commands open the state file read-only: run by another OS user, or beside a crashed
// gateway's WAL, they create no file, change no byte of the file or its -wal, and never
// checkpoint; a file they cannot read is reported as such (issue 12 item 10). The owner's reads
// run in process; another user's run the built bin in a child under that user's id.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { crashedGatewayFile } from './support/crashedGateway.js';
import { openToEveryone, otherUid, runCliAsOtherUser } from './support/otherUser.js';
import { jsonOf, requireBuiltCli, runCli, tempDir, type CliRun } from './support/runCli.js';

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
  openToEveryone(dir);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each file of the folder with the sha256 of its bytes and its owner. */
function folderState(folder: string, skipShm = false): Record<string, string> {
  const state: Record<string, string> = {};
  for (const name of fs.readdirSync(folder).sort()) {
    const file = path.join(folder, name);
    const stat = fs.statSync(file);
    // The -shm is the WAL's shared index: a reader that may write it updates its read marks.
    const bytes = skipShm && name.endsWith('-shm') ? 'index' : crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    state[name] = `${bytes} uid=${stat.uid} mode=${(stat.mode & 0o777).toString(8)}`;
  }
  return state;
}

function freshFolder(name: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  openToEveryone(folder);
  return folder;
}

const READS = (key: string, watcher: string): [string, string[]][] => [
  ['status', ['status', key, '--json']],
  ['status --since', ['status', key, '--since', '0', '--json']],
  ['list', ['list', '--json']],
  ['cursors', ['cursors', '--watcher', watcher, '--json']],
];

function expectRead(run: CliRun): void {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}

describe.each([
  ['the owner', runCli],
  ['another OS user', runCliAsOtherUser],
])('read commands run by %s', (_who, run) => {
  test("beside a crashed gateway's WAL they read its last commits and leave the file, the -wal and the folder as they were", async () => {
    const folder = freshFolder(`crashed-${run === runCli ? 'owner' : 'other'}`);
    const db = path.join(folder, 'state.db');
    const crashed = crashedGatewayFile(db);
    const before = folderState(folder, true);
    for (const [name, args] of READS(crashed.sessionKey, crashed.watcher)) {
      const result = await run([...args, '--db', db]);
      expectRead(result);
      if (name === 'status') expect(jsonOf<{ stateVersion: number }>(result).stateVersion).toBe(crashed.head);
      if (name === 'cursors') expect(jsonOf<{ target: string }[]>(result).map((row) => row.target)).toEqual([crashed.sessionKey]);
      expect(folderState(folder, true)).toEqual(before);
    }
  });

  test('on a cleanly closed file (no -wal, no -shm) they create no file at all', async () => {
    const folder = freshFolder(`clean-${run === runCli ? 'owner' : 'other'}`);
    const db = path.join(folder, 'state.db');
    const recorded = await runCli(['record', 'agent:a:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--json', '--db', db]);
    expect(recorded.status).toBe(0);
    const before = folderState(folder);
    expect(Object.keys(before)).toEqual(['state.db']);
    for (const [name, args] of READS('agent:a:main', 'agent:a:main')) {
      const result = await run([...args, '--db', db]);
      expectRead(result);
      if (name === 'status') expect(jsonOf<{ stateVersion: number }>(result).stateVersion).toBe(jsonOf<{ event: { sequence: number } }>(recorded).event.sequence);
      expect(folderState(folder)).toEqual(before);
    }
  });
});

test("another user's read leaves no file the owner's gateway could not write, so the owner still writes", async () => {
  const folder = freshFolder('owner-still-writes');
  const db = path.join(folder, 'state.db');
  expect((await runCli(['record', 'agent:a:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', db])).status).toBe(0);
  expectRead(await runCliAsOtherUser(['status', 'agent:a:main', '--db', db]));
  const owned = fs.readdirSync(folder).filter((name) => fs.statSync(path.join(folder, name)).uid === otherUid() && otherUid() !== process.getuid?.());
  expect(owned).toEqual([]);
  expect((await runCli(['record', 'agent:a:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 't', '--db', db])).status).toBe(0);
});

test('a state file the reader may not read is reported as unreadable (exit 1), never as a foreign file', async () => {
  const folder = freshFolder('unreadable');
  const db = path.join(folder, 'state.db');
  expect((await runCli(['record', 'agent:a:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', db])).status).toBe(0);
  fs.chmodSync(db, 0o000);
  const before = folderState(folder);
  for (const args of [['status', 'agent:a:main'], ['list'], ['cursors'], ['tail', 'agent:a:main']]) {
    const result = await runCliAsOtherUser([...args, '--db', db]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([`error: cannot read the state file ${db}: permission denied (EACCES)`]);
  }
  expect(folderState(folder)).toEqual(before);
});
