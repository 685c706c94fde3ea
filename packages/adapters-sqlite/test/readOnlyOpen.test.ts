// openSqliteStore({ readOnly: true }) reads a state file without creating, changing or
// checkpointing anything: no -wal or -shm appears beside a cleanly closed file, a live writer's
// later commits are seen, and every write rejects.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { AppendRequest, SessionKey } from '@session-state/domain';

import { openSqliteStore, probeStateFile } from '../src/index.js';
import { NEWEST_SCHEMA_VERSION } from '../src/migrations/index.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-only-open-'));
  file = path.join(dir, 'state.db');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const KEY = 'agent:a:main' as SessionKey;

function request(summary: string): AppendRequest {
  return {
    command: { sessionKey: KEY, kind: 'goal_changed', actorType: 'human', summary, occurredAt: new Date(0).toISOString() },
    appendedAt: 1,
  } as unknown as AppendRequest;
}

function folder(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) files[name] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, name))).digest('hex');
  return files;
}

async function writeOne(summary: string): Promise<void> {
  const writer = openSqliteStore({ path: file });
  const [result] = await writer.append([request(summary)]);
  expect(result?.type).toBe('appended');
  await writer.close();
}

test('reading a cleanly closed file creates no -wal or -shm and changes no byte', async () => {
  await writeOne('first');
  const before = folder();
  expect(Object.keys(before)).toEqual(['state.db']);
  const reader = openSqliteStore({ path: file, readOnly: true });
  expect((await reader.readHeads([KEY]))[0]?.head).toBeGreaterThan(0);
  await reader.close();
  expect(folder()).toEqual(before);
});

test('a read-only store sees commits made after it opened, by a writer that comes and goes', async () => {
  await writeOne('first');
  const reader = openSqliteStore({ path: file, readOnly: true });
  const [before] = await reader.readHeads([KEY]);
  await writeOne('second');
  const [after] = await reader.readHeads([KEY]);
  expect(after?.head).toBeGreaterThan(before?.head ?? Infinity);
  await reader.close();
});

test('every write of a read-only store rejects, and the file stays as it was', async () => {
  await writeOne('first');
  const before = folder();
  const reader = openSqliteStore({ path: file, readOnly: true });
  await expect(reader.append([request('nope')])).rejects.toMatchObject({ operation: 'append' });
  await expect(reader.prune({ now: 10 ** 13, maxAgeMs: 1, maxRows: 1, batchSize: 10 })).rejects.toMatchObject({ operation: 'prune' });
  await reader.close();
  expect(folder()).toEqual(before);
});

test('a missing file is refused read-only and not created', () => {
  expect(() => openSqliteStore({ path: file, readOnly: true })).toThrow();
  expect(fs.existsSync(file)).toBe(false);
});

test('probeStateFile names what is at a path: missing, empty, a directory, foreign, a state file', async () => {
  expect(probeStateFile(file).kind).toBe('missing');
  fs.writeFileSync(file, '');
  expect(probeStateFile(file).kind).toBe('empty');
  expect(probeStateFile(dir)).toEqual({ kind: 'not-a-file', what: 'a directory' });
  fs.writeFileSync(file, 'plain text, not SQLite');
  expect(probeStateFile(file)).toEqual({ kind: 'foreign', reason: 'not a SQLite database' });
  fs.rmSync(file);
  await writeOne('first');
  expect(probeStateFile(file)).toEqual({ kind: 'state', schemaVersion: NEWEST_SCHEMA_VERSION });
});
