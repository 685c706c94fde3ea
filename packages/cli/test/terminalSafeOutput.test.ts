// Stored keys, summaries and payloads reach the human output: no character a terminal acts on
// (C0, DEL, C1 such as CSI, OSC, DCS and ST, U+2028/2029, bidirectional overrides and isolates)
// is written raw; each is written as its JSON escape `\u009b`, and JSON output still reads back
// the stored value exactly.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { exitOf, waitFor } from './support/childOutput.js';
import { CLI_MAIN, jsonOf, requireBuiltCli, runCli, tempDir } from './support/runCli.js';

/** What a terminal could act on; a line break only between lines. */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

// A key with a right-to-left override (a valid key: it is neither whitespace nor a control).
const KEY = 'agent:main:\u202eniam';
const WATCHER = 'agent:ops:main';
const PAYLOAD = { note: 'a\u009b2Jb\u009d0;title\u009c\u0090dcs\u009c\u2028\u2066x\u2069\u007f' };
const SUMMARY = 'goal \u202ereversed\u202c and \u2067isolated\u2069';
/** A summary written into the file by something other than the library (no normalisation). */
const RAW_SUMMARY = 'forged\u001b[2J\r\nseq 99 fake line\u0007';

let dir: string;
let db: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir();
  db = path.join(dir, 'state.db');
  const recordArgs = ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--db', db];
  expect((await runCli(['record', WATCHER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'w', '--db', db])).status).toBe(0);
  expect((await runCli([...recordArgs, '--summary', SUMMARY, '--payload', JSON.stringify(PAYLOAD)])).status).toBe(0);
  expect((await runCli([...recordArgs, '--summary', 'to be forged'])).status).toBe(0);
  const raw = new Database(db);
  raw.prepare('UPDATE events SET summary = ? WHERE summary = ?').run(RAW_SUMMARY, 'to be forged');
  raw.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectTerminalSafe(text: string): void {
  expect(text).not.toMatch(RAW_UNSAFE);
}

test.each([
  ['status', ['status', KEY, '--since', '0']],
  ['list', ['list', KEY]],
  ['explain', ['explain', WATCHER, KEY]],
  ['record', ['record', KEY, '--kind', 'goal_changed', '--actor', 'human', '--summary', SUMMARY, '--payload', JSON.stringify(PAYLOAD)]],
])('%s writes every terminal-active character of stored data as its \\u escape', async (_name, args) => {
  const run = await runCli([...args, '--db', db]);
  expect(run.status).toBe(0);
  expectTerminalSafe(run.stdout);
  expectTerminalSafe(run.stderr);
  expect(run.stdout).toContain('agent:main:\\u202eniam');
});

test('status shows the escapes of the payload, the summary and a forged summary, one line each', async () => {
  const run = await runCli(['status', KEY, '--since', '0', '--db', db]);
  expect(run.stdout).toContain('a\\u009b2Jb\\u009d0;title\\u009c\\u0090dcs\\u009c\\u2028\\u2066x\\u2069\\u007f');
  expect(run.stdout).toContain('goal \\u202ereversed\\u202c and \\u2067isolated\\u2069');
  expect(run.stdout).toContain('forged\\u001b[2J\\u000d\\u000aseq 99 fake line\\u0007');
  expect(run.stdout.split('\n').filter((line) => line.includes('seq 99 fake line'))).toHaveLength(1);
});

test('JSON output is terminal-safe too and reads back the stored values exactly', async () => {
  const run = await runCli(['status', KEY, '--since', '0', '--json', '--db', db]);
  expectTerminalSafe(run.stdout);
  const events = jsonOf<{ stateChanges: { events: { summary: string; payload?: unknown }[] } }>(run).stateChanges.events;
  expect(events.slice(0, 2).map((event) => event.summary)).toEqual([SUMMARY, RAW_SUMMARY]);
  expect(events[0]?.payload).toEqual(PAYLOAD);
});

test.each([['human'], ['json']])('tail (%s) writes stored data terminal-safe', async (form) => {
  const child = spawn(process.execPath, [CLI_MAIN, 'tail', KEY, '--since', '0', '--db', db, ...(form === 'json' ? ['--json'] : [])]);
  const exited = exitOf(child);
  const stdout = await waitFor(child.stdout, (text) => text.includes('seq 99 fake line'));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expectTerminalSafe(stdout);
  if (form === 'json') {
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { sessionKey: string; summary: string; payload?: unknown });
    expect(events.slice(0, 2).map((event) => [event.sessionKey, event.summary])).toEqual([[KEY, SUMMARY], [KEY, RAW_SUMMARY]]);
    expect(events[0]?.payload).toEqual(PAYLOAD);
  } else {
    expect(stdout).toContain('\\u009b2Jb');
  }
});
