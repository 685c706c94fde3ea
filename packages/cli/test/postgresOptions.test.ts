// The PostgreSQL options of the CLI that need no server: --schema only with a postgres:// --db, a
// bad schema name refused before connecting, demo refusing a URL, and a failed connection that
// names host:port but never the password. (test/cli/postgres/ runs against a real server.)
import fs from 'node:fs';
import path from 'node:path';

import { test as propTest, fc } from '@fast-check/jest';

import { maskUrl } from '../src/state/secrets.js';
import { runCli, tempDir, type CliRun } from './support/runCli.js';
import { closedPort as aClosedPort } from './support/closedPort.js';

const KEY = 'agent:main:subagent:worker';
const RECORD = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'];
const PASSWORD = 'n0t-in-any-output';

let dir: string;
/** A local port nothing listens on, so a connection to it is refused at once. */
let closedPort: number;

beforeAll(async () => {
  dir = tempDir();
  closedPort = await aClosedPort();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectUsageError(run: CliRun, argument: string): string {
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(argument);
  return lines[0] ?? '';
}

describe('--schema with a SQLite file is a usage error that creates nothing', () => {
  test.each([
    ['status', ['status', KEY]],
    ['list', ['list']],
    ['cursors', ['cursors']],
    ['explain', ['explain', KEY, KEY]],
    ['prune', ['prune']],
    ['tail', ['tail', KEY]],
    ['record', RECORD],
    ['demo', ['demo']],
  ])('%s --schema on a file path exits 2 naming --schema', async (name, args) => {
    const file = path.join(dir, `schema-${name}.db`);
    const line = expectUsageError(await runCli([...args, '--db', file, '--schema', 'session_state']), '--schema');
    expect(line).toContain(file);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('SESSION_STATE_PG_SCHEMA with a file path is refused too, naming the variable', async () => {
    const file = path.join(dir, 'schema-env.db');
    const line = expectUsageError(await runCli([...RECORD, '--db', file], { SESSION_STATE_PG_SCHEMA: 'session_state' }), '--schema');
    expect(line).toContain('SESSION_STATE_PG_SCHEMA');
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('a PostgreSQL URL', () => {
  const url = (): string => `postgres://cli:${PASSWORD}@127.0.0.1:${closedPort}/test`;

  test.each([
    ['upper case', 'Session'],
    ['a leading digit', '1state'],
    ['a pg_ prefix', 'pg_state'],
    ['a quote', 'a"b'],
    ['41 characters', 'a'.repeat(41)],
    ['nothing', ''],
  ])('a --schema with %s exits 2 naming --schema, before connecting', async (_name, schema) => {
    // The server's port is closed: a connection attempt would exit 1, not 2.
    const line = expectUsageError(await runCli(['status', KEY, '--db', url(), '--schema', schema]), '--schema');
    // Described by type and size, never repeated (a --schema may be a pasted secret).
    expect(line).toContain(schema === '' ? 'got an empty string' : `got a string of ${schema.length} characters`);
    if (schema.length > 1) expect(line).not.toContain(schema);
  });

  test('a bad SESSION_STATE_PG_SCHEMA names the variable', async () => {
    const line = expectUsageError(await runCli(['status', KEY, '--db', url()], { SESSION_STATE_PG_SCHEMA: 'Bad' }), '--schema');
    expect(line).toContain('SESSION_STATE_PG_SCHEMA');
  });

  test.each([['--db'], ['SESSION_STATE_DB']])('demo refuses a URL from %s and says why, without printing the URL', async (source) => {
    const run = source === '--db' ? await runCli(['demo', '--db', url()]) : await runCli(['demo'], { SESSION_STATE_DB: url() });
    const line = expectUsageError(run, '--db');
    expect(line).toMatch(/deletes and recreates/u);
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain('127.0.0.1');
  });

  test.each([
    ['status', ['status', KEY]],
    ['list', ['list']],
    ['cursors', ['cursors', '--json']],
    ['explain', ['explain', KEY, KEY, '--json']],
    ['prune', ['prune']],
    ['tail', ['tail', KEY]],
    ['record', RECORD],
  ])('%s on a closed port exits 1 with one line naming host:port, the password masked', async (_name, args) => {
    const run = await runCli([...args, '--db', url()]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `error: cannot connect to PostgreSQL at 127.0.0.1:${closedPort} (postgres://cli:***@127.0.0.1:${closedPort}/test): connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    ]);
  });

  test.each([
    ['an unencoded @ in the password', `postgresql://cli:${PASSWORD}@x@localhost:PORT/test`, `postgresql://cli:***@localhost:PORT/test`],
    ['a password parameter', `postgres://cli@localhost:PORT/test?password=${PASSWORD}`, `postgres://cli@localhost:PORT/test?password=***`],
    ['a percent-encoded password', `postgres://cli:${encodeURIComponent(`${PASSWORD}/:?`)}@localhost:PORT/test`, `postgres://cli:***@localhost:PORT/test`],
  ])('a failed connection never prints the password, given %s', async (_name, template, masked) => {
    const run = await runCli(['status', KEY, '--db', template.replace('PORT', String(closedPort))]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`localhost:${closedPort} (${masked.replace('PORT', String(closedPort))})`);
    expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
  });

  test('--help names the URL form, --schema and SESSION_STATE_PG_SCHEMA', async () => {
    const help = await runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('postgres://');
    expect(help.stdout).toContain('--schema <name>');
    expect(help.stdout).toContain('SESSION_STATE_PG_SCHEMA');
  });
});

describe('maskUrl', () => {
  const userChars = fc.stringMatching(/^[a-z0-9_]{1,12}$/u);
  const hostPath = fc.constantFrom('db:5432/state', 'localhost/test', '[::1]:6543/x?sslmode=require');

  propTest.prop([userChars, fc.string({ minLength: 1 }), hostPath])(
    'any password between user: and @ becomes *** and nothing else changes',
    (user, password, rest) => {
      expect(maskUrl(`postgres://${user}:${password}@${rest}`)).toBe(`postgres://${user}:***@${rest}`);
    },
  );

  test('a URL without a password is printed as it is', () => {
    expect(maskUrl('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(maskUrl('postgresql://db/test')).toBe('postgresql://db/test');
  });
});
