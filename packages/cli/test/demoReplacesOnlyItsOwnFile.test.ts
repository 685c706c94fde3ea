// `demo` replaces only a file it made itself, decided by the label it writes into its file and
// never by what the file lacks: a real state file (even one holding only cursors, or only the
// demo's session keys) and a foreign file are refused and left byte for byte (issue 12 item 3).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';
import { openSqliteStore } from '@session-state/adapters-sqlite';

import { createSessionStateAwareness } from '@session-state/app';
import { runCli, tempDir } from './support/runCli.js';

// The demo's own session keys: a gateway may well use them too.
const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';

let dir: string;

beforeAll(() => {
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every file of the folder whose name starts with the state file's, with the hash of its bytes. */
function filesOf(file: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith(path.basename(file))).sort()) {
    files[name] = crypto.createHash('sha256').update(fs.readFileSync(path.join(path.dirname(file), name))).digest('hex');
  }
  return files;
}

async function gatewayFile(name: string, work: (awareness: Awaited<ReturnType<typeof createSessionStateAwareness>>) => Promise<unknown>): Promise<string> {
  const file = path.join(dir, name);
  const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: file }), logger: { warn: () => undefined, error: () => undefined } });
  await work(awareness);
  await awareness.close();
  return file;
}

describe('demo refuses a file it did not make and leaves it byte for byte', () => {
  test.each([
    [
      'a state file whose sessions have cursors but no events yet',
      () => gatewayFile('cursors-only.db', (a) => a.sent({ senderKey: MANAGER, deliveredTo: RESEARCHER, watch: true })),
    ],
    [
      "a state file holding events of the demo's own session keys",
      () => gatewayFile('demo-keys.db', (a) => a.record({ sessionKey: MANAGER, kind: 'goal_changed', actorType: 'human', summary: 'real work' })),
    ],
    [
      'a SQLite file of another program',
      () => {
        const file = path.join(dir, 'foreign.db');
        const raw = new Database(file);
        raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
        raw.close();
        return Promise.resolve(file);
      },
    ],
    [
      'a file that is not SQLite',
      () => {
        const file = path.join(dir, 'text.db');
        fs.writeFileSync(file, 'not sqlite at all');
        return Promise.resolve(file);
      },
    ],
  ])('%s', async (_name, make) => {
    const file = await make();
    const before = filesOf(file);
    const run = await runCli(['demo', '--db', file]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^error: --db: .*refusing to remove it/u)]);
    expect(filesOf(file)).toEqual(before);
  });

  test('a demo file a gateway went on to use for other sessions', async () => {
    const file = path.join(dir, 'reused-demo.db');
    expect((await runCli(['demo', '--db', file])).status).toBe(0);
    const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: file }), logger: { warn: () => undefined, error: () => undefined } });
    await awareness.record({ sessionKey: 'agent:prod:main', kind: 'goal_changed', actorType: 'human', summary: 'real work' });
    await awareness.close();
    const before = filesOf(file);
    const run = await runCli(['demo', '--db', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('agent:prod:main');
    expect(filesOf(file)).toEqual(before);
  });
});

test('after a record on the default demo file, the refusal says that npm start -- --db <other path> works, and that path does', async () => {
  const folder = path.join(dir, 'npm-start');
  fs.mkdirSync(folder);
  expect((await runCli(['demo'], {}, folder)).status).toBe(0);
  expect((await runCli(['record', 'agent:mine:main', '--kind', 'goal_changed', '--actor', 'human', '--summary', 's'], {}, folder)).status).toBe(0);
  const refused = await runCli(['demo'], {}, folder);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/^error: --db: \.\/session-state\.db holds sessions other than the demo's .*choose another --db: ".* demo --db demo\.db", or from this repository "npm start -- --db demo\.db"\n$/u);
  // What `npm start -- --db demo.db` runs: the root start script's command with the arguments after --.
  const start = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  expect(start).toMatch(/session-state\.js demo$/u);
  const other = await runCli(['demo', '--db', 'demo.db'], {}, folder);
  expect(other.status).toBe(0);
});

test("demo replaces its own file", async () => {
  const file = path.join(dir, 'own.db');
  const first = await runCli(['demo', '--db', file]);
  expect(first.status).toBe(0);
  expect(first.stdout.split('\n')[0]).toContain('a new state file');
  const second = await runCli(['demo', '--db', file]);
  expect(second.stderr).toBe('');
  expect(second.status).toBe(0);
  expect(second.stdout.split('\n')[0]).toContain('removed the previous demo file');
});
