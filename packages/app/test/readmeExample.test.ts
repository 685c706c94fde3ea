// Runs the embedding example of the root README as an ES module against the built packages
// (`npm test` builds first), so the documented code keeps working.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { noticeTextOf } from '@session-state/testkit';

const ROOT = join(__dirname, '..', '..', '..');

function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /<!-- embed-example:start -->([\s\S]*?)<!-- embed-example:end -->/.exec(readme)?.[1];
  const code = section === undefined ? undefined : /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('README.md has no ```js block between the embed-example markers');
  return code;
}

test('the README embedding example runs with node and prints the spawn, one wake, one notice and the delta', () => {
  expect(existsSync(join(ROOT, 'packages', 'app', 'dist', 'index.js'))).toBe(true); // run `npm run build` first
  const code = readmeExample();
  expect(code).toContain("import { createSessionStateAwareness } from '@session-state/app';");
  // Notices are objects (issue 15): the example reads their fields and never parses the text.
  expect(code).not.toMatch(/\.exec\(|match\(/u);

  const output = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  const lines = output.trimEnd().split('\n');

  const child = 'agent:main:subagent:child-7';
  expect(lines).toHaveLength(4);
  // The parent's cursor is seeded at the spawn event, so the notice says changesSince <spawn>.
  const spawnedAt = Number(/^spawned at (\d+)$/.exec(lines[0] ?? '')?.[1]);
  expect(spawnedAt).toBeGreaterThan(0);
  expect(lines[1]).toBe('wake agent:main:main');
  expect(lines[2]).toBe(noticeTextOf(child, spawnedAt));
  const since = spawnedAt;
  const delta = /^version (\d+): (\d+) human_direct_message$/.exec(lines[3] ?? '');
  expect(delta).not.toBeNull();
  // The delta holds exactly the human turn, which is the session's state version.
  expect(Number(delta?.[1])).toBe(Number(delta?.[2]));
  expect(Number(delta?.[2])).toBeGreaterThan(since);
});
