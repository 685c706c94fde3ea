// The inspector's file poll through a symbolic link: SQLite keeps the -wal beside the link's
// target, so the poll watches that one and hears a commit that only grows it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import type { SessionKey } from '@session-state/domain';

import { sqliteFileChanges } from '../src/changes.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a commit through the link that only grows the target's -wal is heard", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-inspector-link-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const link = path.join(dir, 'state.db');
  fs.symlinkSync(path.join(dir, 'data', 'state.db'), link);
  const writer = openSqliteStore({ path: link });
  await writer.watch({ watcher: 'agent:w0:main' as SessionKey, target: 'agent:t:main' as SessionKey, now: 1_000 });
  let heard = 0;
  const subscription = await sqliteFileChanges(link, 10)(() => {
    heard += 1;
  });
  try {
    const mainFile = fs.statSync(link, { bigint: true }).mtimeNs;
    await writer.watch({ watcher: 'agent:w1:main' as SessionKey, target: 'agent:t:main' as SessionKey, now: 1_000 });
    // Up to 100 polls' worth of waiting, so a poll that never hears fails here rather than at the test's timeout.
    for (let waited = 0; heard === 0 && waited < 100; waited += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fs.statSync(link, { bigint: true }).mtimeNs).toBe(mainFile);
    expect(heard).toBeGreaterThan(0);
  } finally {
    await subscription.close();
    await writer.close();
  }
});
