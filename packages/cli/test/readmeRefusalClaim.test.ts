// The root README says what the command line prints for a mistyped kind; this runs the command it
// names and checks the line it quotes, and that the mistyped value itself is not echoed.
import fs from 'node:fs';
import path from 'node:path';

import { runCli, suiteTempDir } from './support/runCli.js';

const suite = suiteTempDir();

test('the README line for a mistyped --kind is what record prints: the value described, never quoted', async () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8').replace(/\s+/gu, ' ');
  const claim = /The command line quotes nothing it refuses: `record --kind (\S+)` says `([^`]+)`/u.exec(readme);
  if (claim === null) throw new Error('README.md no longer says what the command line prints for a mistyped kind');
  const [, kind = '', line = ''] = claim;
  const [before = '', after = ''] = line.split('…');

  const run = await runCli(['record', 'agent:main:main', '--kind', kind, '--actor', 'human', '--summary', 's', '--db', 'never-made.db'], {}, suite.path);
  expect(run.status).toBe(2);
  expect(run.stderr.startsWith(before)).toBe(true);
  expect(run.stderr.trimEnd().endsWith(after)).toBe(true);
  expect(run.stderr).not.toContain(kind);
});
