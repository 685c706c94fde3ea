// The reset, delete and schema commands on a state file: reset forgets what a watcher watches,
// delete removes a session's events and every cursor from or to it, schema shows the version and
// the sizes on disk; none creates a store (issue 16 item 1).
import fs from 'node:fs';
import path from 'node:path';

import { jsonOf, runCli, suiteTempDir } from './support/runCli.js';
import { crashedGatewayFile } from './support/crashedGateway.js';
import { dumpTables } from './support/stateFile.js';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';

const suite = suiteTempDir();

/** A fresh demo file (three sessions, cursors between them) at `name` in the suite's folder. */
async function demoFile(name: string): Promise<string> {
  const db = path.join(suite.path, name);
  const run = await runCli(['demo', '--db', db]);
  expect(run.status).toBe(0);
  return db;
}

interface CursorJson {
  readonly watcher: string;
  readonly target: string;
}

async function cursors(db: string): Promise<CursorJson[]> {
  return jsonOf<CursorJson[]>(await runCli(['cursors', '--json', '--db', db]));
}

test("reset <watcher> removes exactly that watcher's cursors and reports how many; events stay", async () => {
  const db = await demoFile('reset.db');
  const before = await cursors(db);
  const own = before.filter((row) => row.watcher === MANAGER);
  expect(own.length).toBeGreaterThan(0);
  const eventsBefore = dumpTables(db)['events'];
  const run = await runCli(['reset', MANAGER, '--json', '--db', db]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(jsonOf(run)).toEqual({ watcher: MANAGER, cursorsRemoved: own.length });
  expect(await cursors(db)).toEqual(before.filter((row) => row.watcher !== MANAGER));
  expect(dumpTables(db)['events']).toEqual(eventsBefore);
  const again = await runCli(['reset', MANAGER, '--db', db]);
  expect(again.stdout).toBe(`reset ${MANAGER}: it watched nothing; nothing removed\n`);
});

test('delete <session> removes its events and every cursor from or to it; other sessions keep theirs', async () => {
  const db = await demoFile('delete.db');
  expect((await runCli(['record', MANAGER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'another session', '--db', db])).status).toBe(0);
  const before = await cursors(db);
  const touching = before.filter((row) => row.watcher === RESEARCHER || row.target === RESEARCHER);
  expect(touching.length).toBeGreaterThan(0);
  const head = jsonOf<{ stateVersion: number }>(await runCli(['status', RESEARCHER, '--json', '--db', db])).stateVersion;
  const eventsBefore = (dumpTables(db)['events'] ?? []) as Record<string, unknown>[];
  expect(eventsBefore.some((row) => row['session_key'] !== RESEARCHER)).toBe(true);
  const run = await runCli(['delete', RESEARCHER, '--json', '--db', db]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(jsonOf(run)).toEqual({ sessionKey: RESEARCHER, exists: true, head, cursorsRemoved: touching.length });
  expect(await cursors(db)).toEqual(before.filter((row) => row.watcher !== RESEARCHER && row.target !== RESEARCHER));
  const after = jsonOf<{ stateChanges: { events: unknown[] } }>(await runCli(['status', RESEARCHER, '--since', '0', '--json', '--db', db]));
  expect(after.stateChanges.events).toEqual([]);
  expect(dumpTables(db)['events']).toEqual(eventsBefore.filter((row) => row['session_key'] !== RESEARCHER));
});

test('delete of a session the store does not know says so and removes nothing', async () => {
  const db = await demoFile('delete-unknown.db');
  const before = dumpTables(db);
  const run = await runCli(['delete', 'agent:nobody:main', '--db', db]);
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('delete agent:nobody:main: no such session in this store; nothing removed\n');
  expect(dumpTables(db)).toEqual(before);
});

test.each(['reset', 'delete'])('%s on a missing file refuses (exit 2) and creates nothing', async (command) => {
  const db = path.join(suite.path, `${command}-missing.db`);
  const run = await runCli([command, MANAGER, '--db', db]);
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/^error: --db: no state file at /u);
  expect(fs.existsSync(db)).toBe(false);
});

test('schema shows the schema version, the path and the sizes of the file and its -wal', async () => {
  const db = await demoFile('schema.db');
  const run = await runCli(['schema', '--json', '--db', db]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const described = jsonOf<{ kind: string; path: string; schemaVersion: number; fileBytes: number; walBytes: number }>(run);
  const walPath = `${db}-wal`;
  expect(described).toEqual({
    kind: 'sqlite',
    path: db,
    schemaVersion: expect.any(Number),
    fileBytes: fs.statSync(db).size,
    walBytes: fs.existsSync(walPath) ? fs.statSync(walPath).size : 0,
  });
  expect(described.schemaVersion).toBeGreaterThan(0);
  const text = (await runCli(['schema', '--db', db])).stdout;
  expect(text).toContain(`state file       ${db} (SQLite)`);
  expect(text).toContain(`schema version   ${described.schemaVersion}\n`);
  expect(text).toContain(`file             ${described.fileBytes} bytes\n`);
});

test("schema counts the -wal a gateway's uncheckpointed commits left, without checkpointing it", async () => {
  const db = path.join(suite.path, 'crashed.db');
  crashedGatewayFile(db);
  const walBytes = fs.statSync(`${db}-wal`).size;
  expect(walBytes).toBeGreaterThan(0);
  const described = jsonOf<{ walBytes: number }>(await runCli(['schema', '--json', '--db', db]));
  expect(described.walBytes).toBe(walBytes);
  expect(fs.statSync(`${db}-wal`).size).toBe(walBytes);
});

test('schema on a missing file refuses and creates nothing', async () => {
  const db = path.join(suite.path, 'schema-missing.db');
  const run = await runCli(['schema', '--db', db]);
  expect(run.status).toBe(2);
  expect(fs.existsSync(db)).toBe(false);
});
