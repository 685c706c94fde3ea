// A fresh temporary database path per test, and its removal (with the WAL side files).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempDb {
  readonly dir: string;
  readonly path: string;
  remove(): void;
}

export function tempDbPath(name = 'state.db'): TempDb {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-sqlite-'));
  return { dir, path: path.join(dir, name), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
