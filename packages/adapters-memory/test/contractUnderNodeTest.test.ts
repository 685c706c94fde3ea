// The published contract suite must not need jest: a node:test run of it (on the built packages,
// in a process of its own) passes every test and reports no jest global.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

test('the contract suite runs under node:test with its own describe/test/hooks and every test passes', () => {
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', path.join(__dirname, 'support', 'contractUnderNodeTest.mjs')], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(/^# fail 0$/m);
  expect(Number(/^# pass (\d+)$/m.exec(run.stdout)?.[1])).toBeGreaterThan(50);
  expect(run.status).toBe(0);
});
