// Runs the embedding example of the root README as plain JavaScript against the built packages
// (`npm test` builds first), so the documented code keeps working.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { expectedNotice } from './support/harness';

const ROOT = join(__dirname, '..', '..', '..');

function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /<!-- embed-example:start -->([\s\S]*?)<!-- embed-example:end -->/.exec(readme)?.[1];
  const code = section === undefined ? undefined : /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('README.md has no ```js block between the embed-example markers');
  return code;
}

test('the README embedding example runs with node and prints one wake, one notice and the delta', () => {
  expect(existsSync(join(ROOT, 'packages', 'app', 'dist', 'index.js'))).toBe(true); // run `npm run build` first
  const code = readmeExample();
  expect(code).toContain("require('@session-state/app')");

  const output = execFileSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  const lines = output.trimEnd().split('\n');

  const child = 'agent:main:subagent:child-7';
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe('wake agent:main:main');
  const since = Number(/changesSince (\d+)\.$/.exec(lines[1] ?? '')?.[1]);
  expect(lines[1]).toBe(expectedNotice(child, since));
  const delta = /^version (\d+): (\d+) human_direct_message$/.exec(lines[2] ?? '');
  expect(delta).not.toBeNull();
  // The delta holds exactly the human turn, which is the session's state version.
  expect(Number(delta?.[1])).toBe(Number(delta?.[2]));
  expect(Number(delta?.[2])).toBeGreaterThan(since);
});
