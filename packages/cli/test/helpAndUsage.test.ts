// Commander's own features, as the command line uses them: every command's help lists the global
// options and marks required ones, every missing required option is reported at once, options
// with fixed values list them (and a refused value is described, not quoted), a typo gets a
// suggestion, `help foo` says only that there is no such command (issue 16 item 1).
import fs from 'node:fs';
import path from 'node:path';

import { DEFAULT_SCHEMA } from '@session-state/adapters-postgres';
import { EVENT_KINDS } from '@session-state/domain';

import { HELP_DEFAULT_SCHEMA } from '../src/state/stateLocation.js';
import { runCli } from './support/runCli.js';

const KEY = 'agent:main:main';

test.each(['status', 'record', 'reset', 'delete', 'schema', 'cursors'])('%s --help lists the global options --db and --schema', async (command) => {
  const run = await runCli([command, '--help']);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/Global Options:[\s\S]*--db <path\|url>[\s\S]*--schema <name>/u);
});

test('record --help marks its required options and lists the kinds and actor types as choices', async () => {
  const help = (await runCli(['record', '--help'])).stdout.replace(/\s+/gu, ' ');
  for (const flag of ['--kind <kind>', '--actor <actorType>', '--summary <text>']) {
    expect(help).toMatch(new RegExp(`${flag} ((?! --).)*\\(required\\)`, 'u'));
  }
  expect(help).not.toMatch(/--by <sessionKey> ((?! --).)*\(required\)/u);
  expect(help).toContain(`(choices: ${EVENT_KINDS.map((kind) => `"${kind}"`).join(', ')})`);
  expect(help).toContain('(choices: "human", "agent", "system")');
});

test('every missing required option is named in one error, not one per run', async () => {
  const run = await runCli(['record', KEY, '--actor', 'human']);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe("error: required options '--kind <kind>', '--summary <text>' not specified\n");
  const one = await runCli(['record', KEY, '--actor', 'human', '--kind', 'goal_changed']);
  expect(one.stderr).toBe("error: required option '--summary <text>' not specified\n");
});

test('a value outside the choices is refused naming the option and the choices, described rather than quoted', async () => {
  const run = await runCli(['record', KEY, '--kind', 'goal_changed', '--actor', 'robot', '--summary', 's', '--db', '/nonexistent-folder/x.db']);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('error: --actor: expected one of human, agent, system, got a string of 5 characters\n');
});

test('a mistyped command gets a suggestion', async () => {
  const run = await runCli(['stauts', KEY]);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe("error: unknown command 'stauts'\n(Did you mean status?)\n");
});

test('help of an unknown command says only that there is none, and which there are', async () => {
  const run = await runCli(['help', 'foo']);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: help: there is no command "foo"; the commands are demo, status, .*reset, delete, schema, completion/u)]);
});

test('help <command> prints that command help, help alone the program help', async () => {
  const status = await runCli(['help', 'status']);
  expect(status.status).toBe(0);
  expect(status.stdout).toBe((await runCli(['status', '--help'])).stdout);
  const all = await runCli(['help']);
  expect(all.status).toBe(0);
  expect(all.stdout).toBe((await runCli(['--help'])).stdout);
});

test('--version prints the CLI package version', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  const run = await runCli(['--version']);
  expect(run).toEqual({ status: 0, stdout: `${manifest.version}\n`, stderr: '' });
});

test("the help's default schema is the PostgreSQL adapter's (named without loading the driver)", () => {
  expect(HELP_DEFAULT_SCHEMA).toBe(DEFAULT_SCHEMA);
});
