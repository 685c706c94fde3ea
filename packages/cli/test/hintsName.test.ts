// Every command a message or the demo names runs from where the user is: `npx session-state`
// where npx finds this bin (this repository after `npm install`, or a project that installed the
// CLI), `node <path to the bin>` anywhere else. The hints are run here, not only read.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { toolCommand } from '../src/toolCommand.js';
import { requireBuiltCli, runCli, tempDir } from './support/runCli.js';

const REPOSITORY = path.resolve(__dirname, '..', '..', '..');
const BIN = path.resolve(__dirname, '..', 'bin', 'session-state.js');

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The command a missing-file error hints at for `subcommand`: the words before it, in quotes. */
function hintOf(stderr: string, subcommand: string): string {
  const hint = new RegExp(`"([^"]+) ${subcommand}"`, 'u').exec(stderr)?.[1];
  if (hint === undefined) throw new Error(`no "run ... ${subcommand}" hint in: ${stderr}`);
  return hint;
}

/** Runs `command` (a hint: program and arguments separated by blanks) with more arguments in `cwd`. */
function runHint(command: string, args: readonly string[], cwd: string): ReturnType<typeof spawnSync> {
  const [program, ...words] = command.split(' ');
  const executable = program === 'node' ? process.execPath : (program ?? '');
  return spawnSync(executable, [...words, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

test('outside any project that installed it, a hint names the bin by its path from the working directory, and that command runs', async () => {
  const run = await runCli(['status', 'agent:main:main'], {}, dir);
  expect(run.status).toBe(2);
  const hint = hintOf(run.stderr, 'demo');
  expect(hint).toBe(`node ${path.relative(dir, BIN)}`);
  expect(hintOf(run.stderr, 'record')).toBe(hint);

  const demo = runHint(hint, ['demo', '--db', 'hinted.db'], dir);
  expect(demo.stderr).toBe('');
  expect(demo.status).toBe(0);
  // The demo's closing lines name the same command, and those run too.
  const closing = String(demo.stdout).split('\n').filter((line) => line.startsWith(`  ${hint} `));
  expect(closing).toHaveLength(5);
  const list = runHint(hint, ['list', '--db', 'hinted.db'], dir);
  expect(list.status).toBe(0);
});

test('inside this repository after npm install, the hint is npx session-state, and npx runs this bin', () => {
  const inPackages = path.join(REPOSITORY, 'packages');
  expect(toolCommand(REPOSITORY)).toBe('npx session-state');
  expect(toolCommand(inPackages)).toBe('npx session-state');
  const help = spawnSync('npx', ['--no-install', 'session-state', '--help'], { cwd: inPackages, encoding: 'utf8', timeout: 60_000 });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('Usage: session-state');
});

test('a folder whose node_modules/.bin/session-state is another program is not told to use npx', () => {
  const project = path.join(dir, 'other-project');
  fs.mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  fs.writeFileSync(path.join(project, 'node_modules', '.bin', 'session-state'), '#!/bin/sh\necho another program\n', { mode: 0o755 });
  expect(toolCommand(project)).toBe(`node ${path.relative(project, BIN)}`);
});

test('the bin, run before the build, says how to build and exits 1', () => {
  const clone = path.join(dir, 'unbuilt-clone');
  fs.mkdirSync(path.join(clone, 'bin'), { recursive: true });
  fs.copyFileSync(BIN, path.join(clone, 'bin', 'session-state.js'));
  const run = spawnSync(process.execPath, [path.join(clone, 'bin', 'session-state.js'), '--help'], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('session-state is not built yet: run `npm run build` first\n');
});
