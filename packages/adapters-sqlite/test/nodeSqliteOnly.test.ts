// A gateway with node:sqlite and no better-sqlite3 installed: the BUILT store (in a child process
// where better-sqlite3 cannot be found, in its worker threads too) names the missing driver and
// the option, and on node:sqlite appends, prunes and checkpoints with its worker threads on
// node:sqlite as well; Node 22's ExperimentalWarning is printed at most once, as Node prints it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { tempDbPath, type TempDb } from '@session-state/testkit';

const packageDir = path.resolve(__dirname, '..');
let temp: TempDb;
beforeAll(() => {
  // A bare `jest` run on a fresh checkout builds this package here.
  if (!fs.existsSync(path.join(packageDir, 'dist', 'index.js'))) execFileSync('npx', ['tsc', '-b', packageDir], { stdio: 'inherit' });
});
beforeEach(() => {
  temp = tempDbPath();
});
afterEach(() => temp.remove());

test('without better-sqlite3: the default driver is refused naming the option; node:sqlite appends, and its prune and checkpoint workers run on node:sqlite', () => {
  const support = path.join(__dirname, 'support');
  const child = spawnSync(process.execPath, ['--require', path.join(support, 'hideBetterSqlite3.cjs'), path.join(support, 'nodeSqliteOnly.cjs'), temp.path], { cwd: packageDir, encoding: 'utf8' });
  expect(child.status).toBe(0);
  expect(JSON.parse(child.stdout)).toEqual({
    defaultDriver: "openSqliteStore: better-sqlite3 is not installed: npm install better-sqlite3, or pass driver: 'node:sqlite'",
    appended: 30,
    deleted: 25,
    checkpointedOffThread: true,
  });
  expect(child.stderr.split('ExperimentalWarning').length - 1).toBeLessThanOrEqual(1);
});
