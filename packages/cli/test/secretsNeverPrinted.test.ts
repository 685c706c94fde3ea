// The secrets of a --db URL never reach what the CLI prints, however the URL is spelt: any case
// of postgres:// and postgresql://, blanks around it, a password in the user info, and secret
// query parameters (password, sslpassword, passfile, sslkey, ...) even with percent-encoded
// names; in its own messages, in commander's, in --schema errors and in the driver's text
// (issue 12 item 12).
import { test as propTest, fc } from '@fast-check/jest';

import { maskUrl, redactWith, secretsOf } from '../src/state/secrets.js';
import { closedPort as aClosedPort } from './support/closedPort.js';
import { runCli } from './support/runCli.js';

const KEY = 'agent:main:main';
let closedPort: number;

beforeAll(async () => {
  closedPort = await aClosedPort();
});

// --- spellings ------------------------------------------------------------------------------------

/** `text` with each letter's case chosen by the flags. */
const anyCase = (text: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) =>
    [...text].map((c, i) => (upper[i] === true ? c.toUpperCase() : c)).join(''),
  );

/** `name` with some characters percent-encoded (hex in either case) and any letter case. */
const anySpelling = (name: string): fc.Arbitrary<string> =>
  fc.tuple(anyCase(name), fc.array(fc.constantFrom('none', 'lower', 'upper'), { minLength: name.length, maxLength: name.length })).map(([cased, encodings]) =>
    [...cased]
      .map((c, i) => {
        const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
        return encodings[i] === 'lower' ? `%${hex}` : encodings[i] === 'upper' ? `%${hex.toUpperCase()}` : c;
      })
      .join(''),
  );

const secret = fc.stringMatching(/^[A-Za-z0-9]{10,16}$/u);
const SECRET_PARAMETERS = ['password', 'sslpassword', 'passfile', 'sslkey', 'sslcert', 'sslrootcert', 'token'];

interface Spelled {
  readonly url: string;
  readonly secrets: readonly string[];
}

const spelledUrl: fc.Arbitrary<Spelled> = fc
  .record({
    scheme: fc.constantFrom('postgres', 'postgresql').chain(anyCase),
    before: fc.constantFrom('', ' ', '  ', '\t'),
    after: fc.constantFrom('', ' ', '\n'),
    user: fc.stringMatching(/^[a-z]{1,8}$/u),
    password: fc.option(secret, { nil: undefined }),
    parameters: fc.array(fc.tuple(fc.constantFrom(...SECRET_PARAMETERS).chain(anySpelling), secret), { maxLength: 3 }),
    shown: fc.constantFrom('', 'sslmode=require', 'application_name=cli'),
  })
  .filter((u) => u.password !== undefined || u.parameters.length > 0)
  .map((u) => {
    const query = [u.shown, ...u.parameters.map(([name, value]) => `${name}=${value}`)].filter((p) => p !== '');
    const userInfo = u.password === undefined ? u.user : `${u.user}:${u.password}`;
    return {
      url: `${u.before}${u.scheme}://${userInfo}@127.0.0.1:PORT/test${query.length > 0 ? `?${query.join('&')}` : ''}${u.after}`,
      secrets: [...(u.password !== undefined ? [u.password] : []), ...u.parameters.map(([, value]) => value)],
    };
  });

function expectNoSecret(text: string, secrets: readonly string[]): void {
  for (const s of secrets) expect(text).not.toContain(s);
}

// --- the masking itself ----------------------------------------------------------------------------

propTest.prop([spelledUrl], { numRuns: 300 })('no spelling lets a secret through maskUrl or through the redaction of a driver message quoting it', ({ url, secrets }) => {
  expectNoSecret(maskUrl(url), secrets);
  for (const s of secrets) expect(secretsOf(url)).toContain(s);
  const driverText = `password authentication failed for "${secrets.join('", "')}" connecting to ${url} (${url.trim()})`;
  expectNoSecret(redactWith([url], driverText), secrets);
});

test('a short password is masked as a whole word only, so it does not garble other words', () => {
  expect(redactWith(['postgres://u:ab@h/db'], 'auth failed: "ab" for abc')).toBe('auth failed: "***" for abc');
});

test('a file path is not a URL and is never masked', () => {
  expect(maskUrl('./state?password=x.db')).toBe('./state?password=x.db');
  expect(secretsOf('C:/data/state.db')).toEqual([]);
});

// --- the CLI itself ------------------------------------------------------------------------------

propTest.prop([spelledUrl], { numRuns: 15 })('no spelling of a --db URL lets a secret reach stderr: connection failures, --schema errors, the environment', async ({ url, secrets }) => {
  const db = url.replace('PORT', String(closedPort));
  const connect = await runCli(['status', KEY, '--db', db]);
  expect(connect.status).toBe(1);
  expect(connect.stderr).toMatch(/^error: cannot connect to PostgreSQL at 127\.0\.0\.1:\d+ /mu);
  expectNoSecret(connect.stderr, secrets);

  const schema = await runCli(['list', '--schema', 'Not_A_Schema'], { SESSION_STATE_DB: db });
  expect(schema.status).toBe(2);
  expectNoSecret(schema.stderr, secrets);

  // The URL pasted into --schema by mistake.
  const pasted = await runCli(['list', '--db', db, '--schema', db]);
  expect(pasted.status).toBe(2);
  expectNoSecret(pasted.stderr, secrets);
});

test.each([
  ['mysql://app:Hunter2Secret@db/state'],
  ['  HTTPS://app:Hunter2Secret@db/state?token=Hunter2Secret'],
])('a URL of another scheme (%s) is a usage error that masks it', async (db) => {
  const run = await runCli(['status', KEY, '--db', db]);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('expected a state file path or a postgres:// URL');
  expect(run.stderr).not.toContain('Hunter2Secret');
});

test("commander's own messages are redacted too", async () => {
  const db = `postgres://u:Hunter2Secret@127.0.0.1:${closedPort}/x`;
  const run = await runCli(['status', `${KEY}`, 'extra', '--db', db, `--nope=${db}`]);
  expect(run.status).toBe(2);
  expect(run.stderr).not.toContain('Hunter2Secret');
});
