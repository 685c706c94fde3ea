// A gateway whose SQLite state file is removed under it (a cleanup job's rm): once the store
// notices, every record is a failure result naming the file and what happened, and the store's
// logger says so once, instead of records that say ok and vanish at the next start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';

import { createSessionStateAwareness } from '../src/index.js';
import { humanTurn, recordingLogger } from './support/harness.js';

test('record after the state file was removed returns a failure naming the file, and the store logs it once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-moved-'));
  const file = path.join(fs.realpathSync(dir), 'state.db');
  const storeLog = recordingLogger();
  const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: file, logger: storeLog }), logger: recordingLogger() });
  try {
    expect(await awareness.record(humanTurn('agent:a:main'))).toMatchObject({ ok: true });
    fs.rmSync(file);
    while (storeLog.entries.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await awareness.record(humanTurn('agent:a:main'));
    expect(result).toMatchObject({ ok: false, outcome: 'failed' });
    expect(String((result as { error?: { message?: string } }).error?.message)).toContain(`the state file ${file} was removed since it was opened`);
    expect(storeLog.entries).toHaveLength(1);
  } finally {
    await awareness.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
