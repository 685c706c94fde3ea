// A state file that moves under a running store: removed or replaced, the store notices within
// a few seconds and refuses every write from then on, saying so once; reached through a symbolic
// link, every open finds the -wal beside the link's target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { LogFields, Logger, SessionKey } from '@session-state/domain';

import { probeStateFile } from '../src/file/isStateFile.js';
import { openSqliteStore } from '../src/openSqliteStore.js';
import { appendRequest } from './support/appendRequest.js';

const SESSION = 'agent:a:main' as SessionKey;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-moves-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A logger that keeps what it is told. */
function keepingLogger(): Logger & { readonly lines: { readonly message: string; readonly fields?: LogFields }[] } {
  const lines: { message: string; fields?: LogFields }[] = [];
  return { lines, warn: (fields, message) => lines.push({ message, fields }), error: (fields, message) => lines.push({ message, fields }) };
}

/** Resolves once `condition` holds, checking every 20 ms (the test's timeout bounds the wait). */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

const record = (summary: string) => [appendRequest({ sessionKey: SESSION, summary })];

describe.each([
  ['removed', (file: string) => fs.rmSync(file)],
  [
    'replaced',
    (file: string) => {
      // A restored backup: another file moved over the path.
      const backup = path.join(dir, 'backup.db');
      fs.copyFileSync(file, backup);
      fs.renameSync(backup, file);
    },
  ],
])('a state file %s under a running store', (what, move) => {
  test('makes every later write fail naming the path and what happened, logged once; reads still answer', async () => {
    const file = path.join(dir, 'state.db');
    const logger = keepingLogger();
    const store = openSqliteStore({ path: file, logger });
    await expect(store.append(record('before'))).resolves.toHaveLength(1);

    move(file);
    await eventually(() => logger.lines.length > 0);

    const failure = { _tag: 'StoreError', operation: 'append', message: expect.stringContaining(`the state file ${fs.realpathSync(dir)}/state.db was ${what} since it was opened`) };
    await expect(store.append(record('after'))).rejects.toMatchObject(failure);
    await expect(store.watch({ watcher: 'agent:w:main' as SessionKey, target: SESSION, now: 2_000 })).rejects.toMatchObject({ _tag: 'StoreError', operation: 'watch' });
    await expect(store.append(record('again'))).rejects.toMatchObject(failure);
    await expect(store.readHeads()).resolves.toHaveLength(1);
    await store.close();

    expect(logger.lines).toEqual([{ message: `state file ${what} under a running store: writes now fail`, fields: expect.objectContaining({ operation: 'fileIdentity', what }) }]);
    // Nothing of what was refused reached the log: no summary, no key.
    expect(JSON.stringify(logger.lines)).not.toMatch(/after|again|agent:/u);
  });
});

test('a store whose file stays put writes on and logs nothing', async () => {
  const logger = keepingLogger();
  const store = openSqliteStore({ path: path.join(dir, 'state.db'), logger });
  await store.append(record('one'));
  await new Promise((resolve) => setTimeout(resolve, 1_200)); // past one identity check
  await expect(store.append(record('two'))).resolves.toHaveLength(1);
  await store.close();
  expect(logger.lines).toEqual([]);
});

describe('a state file reached through a symbolic link', () => {
  /** A writer open through `link` with `records` committed and still in the WAL (never checkpointed). */
  async function writerThroughLink(records: number) {
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    const link = path.join(dir, 'state.db');
    fs.symlinkSync(path.join(real, 'state.db'), link);
    const store = openSqliteStore({ path: link });
    for (let i = 0; i < records; i += 1) await store.append(record(`r${i}`));
    expect(fs.existsSync(path.join(real, 'state.db-wal'))).toBe(true);
    expect(fs.existsSync(`${link}-wal`)).toBe(false);
    return { store, link };
  }

  test('a read-only open through the link sees the commits the WAL holds', async () => {
    const { store, link } = await writerThroughLink(3);
    const reader = openSqliteStore({ path: link, readOnly: true });
    await expect(reader.readHeads()).resolves.toMatchObject([{ sessionKey: SESSION, head: 3 }]);
    await reader.close();
    await store.close();
  });

  test('the probe through the link finds the schema while it is still in the WAL', async () => {
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    const link = path.join(dir, 'state.db');
    fs.symlinkSync(path.join(real, 'state.db'), link);
    // Just created: the schema is in the WAL, the main file holds no table yet.
    const store = openSqliteStore({ path: link });
    expect(probeStateFile(link)).toMatchObject({ kind: 'state' });
    await store.close();
  });

});

test('a logger without warn and error functions is refused naming the option, before any file is created', () => {
  const file = path.join(dir, 'state.db');
  expect(() => openSqliteStore({ path: file, logger: { warn: () => undefined } as unknown as Logger })).toThrow('openSqliteStore: logger must be an object with warn and error functions, got object');
  expect(fs.existsSync(file)).toBe(false);
});
