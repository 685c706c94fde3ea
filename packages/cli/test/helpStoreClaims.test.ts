// The program help says which commands need an existing store and which one creates it: each
// command the help names is run on a missing file and does what the help says.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { CLI_MAIN, requireBuiltCli, runCli, suiteTempDir } from './support/runCli.js';

const KEY = 'agent:main:main';
const ARGS: Readonly<Record<string, readonly string[]>> = {
  status: [KEY],
  explain: [KEY, 'agent:main:subagent:child-7'],
  tail: [KEY],
  reset: [KEY],
  delete: [KEY],
  record: [KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'],
  inspect: ['--port', '0'],
  hook: ['claude-code', '--watcher', KEY],
};
/** What `mcp` and `hook` read on standard input. */
const STDIN: Readonly<Record<string, string>> = { mcp: '', hook: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'hello' }) };

const suite = suiteTempDir();

/** A command's exit status and stderr; `mcp` and `hook` read standard input, so they run as the bin. */
async function runOn(command: string, db: string): Promise<{ status: number | null; stderr: string }> {
  const args = [command, ...(ARGS[command] ?? []), '--db', db];
  const input = STDIN[command];
  if (input === undefined) return runCli(args, {}, suite.path);
  requireBuiltCli();
  return spawnSync(process.execPath, [CLI_MAIN, ...args], { cwd: suite.path, input, encoding: 'utf8', timeout: 30_000 });
}

async function helpSentences(): Promise<{ existing: string[]; creating: string[] }> {
  const help = (await runCli(['--help'])).stdout.replace(/\s+/gu, ' ');
  const existing = /([a-z, ]+) need an existing store: they never create a file or a schema\./u.exec(help)?.[1];
  // "record is the one command that creates and migrates one", or a list: "a, b and c create and migrate one".
  const creating = /\. ([a-z, ]+?) (?:is the one command that creates|create) and migrates? one when missing/u.exec(help)?.[1];
  if (existing === undefined || creating === undefined) throw new Error('the program help no longer says which commands create a store');
  const names = (list: string): string[] => list.split(/, | and /u).map((name) => name.trim());
  return { existing: names(existing), creating: names(creating) };
}

test('every command the help says needs an existing store refuses a missing file (exit 2; a hook 1, which hosts do not read as "block") and creates nothing', async () => {
  const { existing } = await helpSentences();
  expect(existing).toEqual(expect.arrayContaining(['status', 'prune', 'reset', 'delete']));
  for (const command of existing) {
    const db = `missing-${command}.db`;
    const run = await runOn(command, db);
    expect([command, run.status, run.stderr]).toEqual([command, command === 'hook' ? 1 : 2, expect.stringContaining(`no state file at ${db}`)]);
    expect(fs.readdirSync(suite.path).filter((name) => name.startsWith(db))).toEqual([]);
  }
});

test('every command the help says creates a store creates the missing file and says so', async () => {
  const { creating } = await helpSentences();
  expect(creating).toContain('record');
  for (const command of creating) {
    const db = `made-by-${command}.db`;
    const run = await runOn(command, db);
    expect([command, run.status, run.stderr]).toEqual([command, 0, `created a new state file at ${db}\n`]);
    expect(fs.existsSync(`${suite.path}/${db}`)).toBe(true);
  }
});
