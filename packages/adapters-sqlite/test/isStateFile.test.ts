// isStateFile tells a migrated session-state file from a missing, empty or foreign one, and
// never creates or writes the file it looks at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';

import { isStateFile, openSqliteStore } from '../src/index.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'is-state-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a file the store has opened is a state file', async () => {
  const file = path.join(dir, 'state.db');
  await openSqliteStore({ path: file }).close();
  expect(isStateFile(file)).toBe(true);
});

test('a missing file is not a state file, and asking does not create it', () => {
  const file = path.join(dir, 'missing.db');
  expect(isStateFile(file)).toBe(false);
  expect(fs.existsSync(file)).toBe(false);
});

test('a foreign SQLite file and a text file are not state files, and stay unchanged', () => {
  const foreign = path.join(dir, 'foreign.db');
  const raw = new Database(foreign);
  raw.exec('CREATE TABLE notes (body TEXT)');
  raw.close();
  const before = fs.readFileSync(foreign);
  expect(isStateFile(foreign)).toBe(false);
  expect(fs.readFileSync(foreign).equals(before)).toBe(true);

  const text = path.join(dir, 'notes.txt');
  fs.writeFileSync(text, 'not a database');
  expect(isStateFile(text)).toBe(false);
});
