// A wrong value the CLI refuses is described by type and size, never repeated, by the CLI or by
// commander: it may be message content (issue 12 item 14, the command-line half).
import { runCli } from './support/runCli.js';

const CONTENT = 'Meet me at the back door at 9pm';
const KEY = 'agent:main:main';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--db', '/nonexistent-folder/never.db'];


test.each([
  ['<sessionKey>', ['status', CONTENT]],
  ['--since', ['status', KEY, '--since', CONTENT]],
  ['--limit', ['status', KEY, '--since', '0', '--limit', CONTENT]],
  ['--watcher', ['cursors', '--watcher', CONTENT]],
  ['<target>', ['explain', KEY, CONTENT]],
  ['--max-age', ['prune', '--max-age', CONTENT]],
  ['--payload', [...RECORD, '--summary', 's', '--payload', CONTENT]],
  ['--payload', [...RECORD, '--summary', 's', '--payload', JSON.stringify([CONTENT])]],
  ['--payload', ['record', KEY, '--kind', 'run_failed', '--actor', 'system', '--summary', 's', '--payload', JSON.stringify({ outcome: CONTENT })]],
  ['--summary', [...RECORD, '--summary', ' \t ']],
  ['--kind', ['record', KEY, '--kind', CONTENT, '--actor', 'human', '--summary', 's']],
  ['[keys...]', ['list', CONTENT]],
])('%s: the refused value is described by type and size, never repeated', async (argument, args) => {
  const run = await runCli(args);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(argument);
  expect(lines[0]).toMatch(/got (a string of \d+ characters|an array of \d+ items?|an object with \d+ keys?|an empty string)/u);
  expect(run.stderr).not.toContain('Meet me');
});
