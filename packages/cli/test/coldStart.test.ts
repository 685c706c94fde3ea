// The CLI loads a command's module only when the run needs it, and a store's adapter only when a command opens that store: the version and the help
// load no database driver and no MCP SDK (only a running `mcp` loads it), and a command on a state file never loads PostgreSQL's, nor drizzle (the
// SQLite store runs SQL text rendered ahead of time). Spawned, since what a fresh process loads is
// the point; the time it takes is measured by `npm run bench` (CLI cold start), never here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { CLI_MAIN, requireBuiltCli, runCli, tempDir } from './support/runCli.js';

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The modules (ESM and CommonJS) a fresh process running the bin with `args` (and `input` on stdin) loaded, as paths or URLs. */
function modulesLoadedBy(args: readonly string[], input = ''): string[] {
  const log = path.join(dir, 'modules.json');
  const code = `const loaded = [];
require('node:module').registerHooks({ load: (url, context, next) => (loaded.push(url.startsWith('file:') ? require('node:url').fileURLToPath(url) : url), next(url, context)) });
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(loaded)));
process.argv = [process.argv[0], ${JSON.stringify(CLI_MAIN)}, ...process.argv.slice(1)];
import(require('node:url').pathToFileURL(${JSON.stringify(CLI_MAIN)}).href);`;
  const result = spawnSync(process.execPath, ['-e', code, '--', ...args], { encoding: 'utf8', cwd: dir, timeout: 30_000, input });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(fs.readFileSync(log, 'utf8')) as string[];
}

const driver = (name: string) => (file: string) => file.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`);
const DRIVERS = ['pg', 'better-sqlite3', 'drizzle-orm'];
// The MCP SDK and the schema library it brings.
const MCP = ['@modelcontextprotocol', 'zod'];

test.each(['--version', '--help', 'status --help', 'mcp --help', 'hook --help', 'completion bash'])('%s loads no database driver, ORM, adapter, facade or MCP SDK', (command) => {
  const loaded = modulesLoadedBy(command.split(' '));
  for (const name of [...DRIVERS, ...MCP]) expect(loaded.filter(driver(name))).toEqual([]);
  expect(loaded.filter((file) => /packages[\\/](adapters-[a-z-]+|app)[\\/]/u.test(file))).toEqual([]);
});

test('--version answers from the manifest without loading the tool, commander or the domain', () => {
  const loaded = modulesLoadedBy(['--version']);
  expect(loaded.filter((file) => /packages[\\/](cli[\\/]dist|domain)[\\/]/u.test(file))).toEqual([]);
  expect(loaded.filter(driver('commander'))).toEqual([]);
  const version = spawnSync(process.execPath, [CLI_MAIN, '--version'], { encoding: 'utf8' });
  const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(CLI_MAIN), '..', 'package.json'), 'utf8')) as { version: string };
  expect([version.status, version.stdout]).toEqual([0, `${manifest.version}\n`]);
});

test.each(['status --help', 'prune --help'])('%s loads no progress bar', (command) => {
  expect(modulesLoadedBy(command.split(' ')).filter(driver('cli-progress'))).toEqual([]);
});

test("status on a state file loads the SQLite adapter, never PostgreSQL's nor drizzle", async () => {
  expect((await runCli(['record', 'agent:main:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', path.join(dir, 's.db')])).status).toBe(0);
  const loaded = modulesLoadedBy(['status', 'agent:main:main', '--db', 's.db']);
  expect(loaded.filter(driver('better-sqlite3')).length).toBeGreaterThan(0);
  expect(loaded.filter(driver('pg'))).toEqual([]);
  expect(loaded.filter(driver('drizzle-orm'))).toEqual([]);
  for (const name of MCP) expect(loaded.filter(driver(name))).toEqual([]);
  expect(loaded.filter((file) => /packages[\\/]adapters-postgres[\\/]/u.test(file))).toEqual([]);
  // A run naming one command loads that command's module alone.
  expect(loaded.filter((file) => /cli[\\/]dist[\\/]commands[\\/]/u.test(file)).map((file) => path.basename(file))).toEqual(['status.js']);
});

test('a hook run loads its own command and the SQLite adapter, and no MCP SDK', async () => {
  expect((await runCli(['record', 'agent:main:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', path.join(dir, 'h.db')])).status).toBe(0);
  const loaded = modulesLoadedBy(['hook', 'claude-code', '--watcher', 'agent:main:main', '--db', 'h.db'], JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'p' }));
  for (const name of [...MCP, 'pg']) expect(loaded.filter(driver(name))).toEqual([]);
  expect(loaded.filter(driver('better-sqlite3')).length).toBeGreaterThan(0);
  expect(loaded.filter((file) => /cli[\\/]dist[\\/](commands|mcp)[\\/]/u.test(file)).map((file) => path.basename(file))).toEqual(['hook.js']);
});

test('help, and a run naming no command, load every command', () => {
  const every = fs.readdirSync(path.join(path.dirname(CLI_MAIN), '..', 'dist', 'commands')).filter((file) => file.endsWith('.js'));
  for (const args of [['--help'], ['help', 'status']]) {
    const commands = modulesLoadedBy(args).filter((file) => /cli[\\/]dist[\\/]commands[\\/]/u.test(file)).map((file) => path.basename(file));
    expect(commands.sort()).toEqual(every.sort());
  }
});
