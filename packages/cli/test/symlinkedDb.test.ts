// A --db reached through a symbolic link: SQLite keeps the -wal and -shm beside the link's
// target, so the read commands resolve the link and read the commits a running gateway's WAL holds.
import fs from 'node:fs';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { decodeRecordInput, type AppendRequest, type StateStore } from '@session-state/domain';

import { jsonOf, runCli, tempDir } from './support/runCli.js';

const SESSION = 'agent:linked:main';

function request(summary: string): AppendRequest {
  const decoded = decodeRecordInput({ sessionKey: SESSION, kind: 'goal_changed', actorType: 'human', summary });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt: 1_000 };
}

let dir: string;
let link: string;
let gateway: StateStore;

beforeAll(async () => {
  dir = tempDir();
  fs.mkdirSync(path.join(dir, 'data'));
  link = path.join(dir, 'state.db');
  fs.symlinkSync(path.join(dir, 'data', 'state.db'), link);
  // A gateway open through the link, its commits still in the WAL beside the target.
  gateway = openSqliteStore({ path: link });
  for (let i = 0; i < 3; i += 1) await gateway.append([request(`goal ${i}`)]);
  expect(fs.statSync(path.join(dir, 'data', 'state.db-wal')).size).toBeGreaterThan(0);
});

afterAll(async () => {
  await gateway.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('status through the link reads the commits the WAL holds', async () => {
  const run = await runCli(['status', SESSION, '--db', link, '--json']);
  expect(run.stderr).toBe('');
  expect(jsonOf<{ stateVersion: number }>(run).stateVersion).toBe(3);
});

test('list through the link shows the session', async () => {
  const run = await runCli(['list', '--db', link, '--json']);
  expect(run.stderr).toBe('');
  expect(jsonOf<{ sessionKey: string; stateVersion?: number }[]>(run)).toEqual([expect.objectContaining({ sessionKey: SESSION, stateVersion: 3 })]);
});

test("schema through the link counts the target's -wal", async () => {
  const run = await runCli(['schema', '--db', link, '--json']);
  expect(run.stderr).toBe('');
  expect(jsonOf<{ walBytes: number }>(run).walBytes).toBeGreaterThan(0);
});
