// `completion bash|zsh` prints scripts generated from the command tree. The bash script is run in
// a real bash (a real shell is what matters), asking it what it completes; zsh is not installed
// here, so its script is checked for the commands, options and choices it must offer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { EVENT_KINDS } from '@session-state/domain';

import { runCli, tempDir } from './support/runCli.js';

let dir: string;
let bashScript: string;

beforeAll(async () => {
  dir = tempDir();
  const run = await runCli(['completion', 'bash']);
  expect(run.status).toBe(0);
  expect(run.stderr).toBe('');
  bashScript = path.join(dir, 'session-state.bash');
  fs.writeFileSync(bashScript, run.stdout);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What bash completes for the words typed so far (the last one being completed), one word a line. */
function completeInBash(words: readonly string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const script = `source '${bashScript}'; COMP_WORDS=(session-state ${quoted}); COMP_CWORD=${words.length}; _session_state; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', cwd: dir, timeout: 10_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

test('bash completes command names from the tree, new commands included', () => {
  expect(completeInBash(['st'])).toEqual(['status']);
  expect(completeInBash(['re']).sort()).toEqual(['record', 'reset']);
  expect(completeInBash(['sch'])).toEqual(['schema']);
});

test("bash completes a command's own options and the global ones", () => {
  expect(completeInBash(['record', '--no'])).toEqual(['--no-create']);
  expect(completeInBash(['status', '--s']).sort()).toEqual(['--schema', '--since']);
  expect(completeInBash(['status', '--d'])).toEqual(['--db']);
});

test('bash completes the choices of an option and of an argument', () => {
  expect(completeInBash(['record', 'agent:a:main', '--kind', ''])).toEqual([...EVENT_KINDS]);
  expect(completeInBash(['record', '--actor', 'a'])).toEqual(['agent']);
  expect(completeInBash(['completion', ''])).toEqual(expect.arrayContaining(['bash', 'zsh']));
});

test('bash completes --db from the file system', () => {
  fs.writeFileSync(path.join(dir, 'mystate.db'), '');
  expect(completeInBash(['status', '--db', 'myst'])).toEqual(['mystate.db']);
});

/** Runs `before`, sources the bash script, then `after` in one bash; its stdout lines. */
function inBash(before: string, after: string): string[] {
  const result = spawnSync('bash', ['-c', `${before}\nsource '${bashScript}'\n${after}`], { encoding: 'utf8', cwd: dir, timeout: 10_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

/** What bash completes after `npx`, through whatever function the script registered for npx. */
function completeAfterNpx(words: readonly string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const fn = '$(complete -p npx | sed -E "s/.* -F ([^ ]+) .*/\\1/")';
  return inBash('', `COMP_WORDS=(npx ${quoted}); COMP_CWORD=${words.length}; ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`);
}

test('bash registers the completion for session-state and for npx session-state', () => {
  expect(inBash('', 'complete -p session-state; complete -p npx')).toEqual(['complete -o default -F _session_state session-state', 'complete -o default -F _session_state_npx npx']);
  expect(completeAfterNpx(['sess'])).toEqual(['session-state']);
  expect(completeAfterNpx(['session-state', 'st'])).toEqual(['status']);
  expect(completeAfterNpx(['session-state', 'record', '--actor', 'a'])).toEqual(['agent']);
  expect(completeAfterNpx(['other-tool', 'st'])).toEqual([]);
});

test("bash leaves a completion npx already has alone", () => {
  expect(inBash('_their_npx() { :; }; complete -F _their_npx npx', 'complete -p npx')).toEqual(['complete -F _their_npx npx']);
});

test('the zsh script is a compdef function offering every command, its options and their choices', async () => {
  const run = await runCli(['completion', 'zsh']);
  expect(run.status).toBe(0);
  const script = run.stdout;
  expect(script.startsWith('#compdef session-state\n')).toBe(true);
  for (const command of ['status', 'record', 'reset', 'delete', 'schema', 'completion']) {
    expect(script).toMatch(new RegExp(`^    '${command}:`, 'mu'));
    expect(script).toMatch(new RegExp(`^        ${command}\\) _arguments `, 'mu'));
  }
  expect(script).toContain(`'--kind[the event kind]:value:(${EVENT_KINDS.join(' ')})'`);
  expect(script).toContain("'--db[the SQLite state file, or the postgres\\://");
  expect(script).toMatch(/'--db\[[^\]]*\]:path:_files'/u);
  // Each command accepts free arguments (session keys) with an empty list, so the options typed
  // after one still complete (an action of ' ' would hide them; checked by hand in zsh 5.9).
  for (const command of ['status', 'record', 'reset', 'delete']) {
    expect(script).toMatch(new RegExp(`^        ${command}\\) _arguments ((?! ;;\\n)[\\s\\S])*'\\*:argument:\\( \\)' ;;$`, 'mu'));
  }
  // Balanced quoting: every line has an even number of unescaped single quotes.
  for (const line of script.split('\n')) expect((line.replace(/'\\''/gu, '').match(/'/gu) ?? []).length % 2).toBe(0);
});

test('an unknown shell is refused, naming the argument and the choices', async () => {
  const run = await runCli(['completion', 'fish']);
  expect(run.status).toBe(2);
  expect(run.stderr).toBe('error: <shell>: expected one of bash, zsh, got a string of 4 characters\n');
});
