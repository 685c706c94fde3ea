// `session-state hook claude-code|codex` as the hosts run it: the built bin as a subprocess, the hosts' documented
// hook event JSON on stdin. It prints the watcher's pending notices as the host's additionalContext for the events that
// take it (UserPromptSubmit, SessionStart, PostToolUse), confirms them, prints nothing when there are none, touches no
// other watcher's cursor, and fails with one stderr line and exit 1 (never 2, which blocks) when it cannot answer.
import net from 'node:net';
import path from 'node:path';

import { CHILD, MANAGER, OPS, runHook, stateFileWithPendingNotices, USER_PROMPT_SUBMIT } from './support/noticeDelivery.js';
import { jsonOf, requireBuiltCli, runCli, spawnCli, specNotice, suiteTempDir } from './support/runCli.js';

jest.setTimeout(60_000);

// The input each host documents for each event (Claude Code's hooks reference; Codex's hook input schemas).
const CLAUDE = { session_id: 'abc123', transcript_path: '/home/u/.claude/projects/p/abc123.jsonl', cwd: '/home/u/p', permission_mode: 'default' };
const CODEX = { session_id: '019d036d-c7fa', turn_id: '019d036d-c7fb', transcript_path: null, cwd: '/home/u/p', model: 'gpt-5-codex', permission_mode: 'default' };
const TOOL = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a\n' }, tool_use_id: 'toolu_01' };
const INPUTS: readonly (readonly [host: string, input: Record<string, unknown>])[] = [
  ['claude-code', USER_PROMPT_SUBMIT],
  ['claude-code', { ...CLAUDE, hook_event_name: 'SessionStart', source: 'startup' }],
  ['claude-code', { ...CLAUDE, hook_event_name: 'PostToolUse', ...TOOL }],
  ['codex', { ...CODEX, hook_event_name: 'UserPromptSubmit', prompt: 'carry on' }],
  ['codex', { ...CODEX, hook_event_name: 'SessionStart', source: 'startup' }],
  ['codex', { ...CODEX, hook_event_name: 'PostToolUse', ...TOOL }],
];

const suite = suiteTempDir();
let files = 0;
const withPendingNotices = (): Promise<string> => stateFileWithPendingNotices(path.join(suite.path, `hook-${(files += 1)}.db`));
type CursorRow = { watcher: string; acked: number; notified: number; material: number; pending: boolean };

const cursorsOf = async (db: string): Promise<CursorRow[]> => jsonOf<CursorRow[]>(await runCli(['cursors', '--json', '--db', db]));

beforeAll(() => requireBuiltCli());

test.each(INPUTS.map(([host, input]) => [host, input['hook_event_name'], input] as const))("%s %s: the host's JSON with the notice as additionalContext, confirmed; the next run prints nothing", async (host, _event, input) => {
  const db = await withPendingNotices();

  const run = runHook(host, MANAGER, ['--db', db], input);

  expect(run).toEqual({ status: 0, stdout: expect.stringMatching(/\n$/u), stderr: '' });
  expect(JSON.parse(run.stdout)).toEqual({ hookSpecificOutput: { hookEventName: input['hook_event_name'], additionalContext: specNotice(CHILD, 1) } });
  expect((await cursorsOf(db)).find((row) => row.watcher === MANAGER)).toMatchObject({ acked: 3, pending: false });
  expect(runHook(host, MANAGER, ['--db', db], input)).toEqual({ status: 0, stdout: '', stderr: '' });
});

test("the hook's run touches no other watcher's cursor: no restart scan over them, no prune", async () => {
  const db = await withPendingNotices();
  const before = await cursorsOf(db);
  expect(before.find((row) => row.watcher === OPS)).toMatchObject({ notified: 2, material: 3, pending: true });

  expect(runHook('claude-code', MANAGER, ['--db', db], USER_PROMPT_SUBMIT).status).toBe(0);

  expect((await cursorsOf(db)).find((row) => row.watcher === OPS)).toEqual(before.find((row) => row.watcher === OPS));
  expect(jsonOf<{ stateVersion: number }>(await runCli(['status', CHILD, '--json', '--db', db])).stateVersion).toBe(3);
});

test('an event whose output cannot add context, or input that is not the event JSON: exit 1, one stderr line, nothing printed or taken', async () => {
  const db = await withPendingNotices();
  for (const input of [{ ...CLAUDE, hook_event_name: 'Stop', stop_hook_active: false }, 'not json', { prompt: 'no event name' }]) {
    const run = runHook('claude-code', MANAGER, ['--db', db], input);
    expect(run).toEqual({ status: 1, stdout: '', stderr: expect.stringMatching(/^error: the hook input on stdin must be the host's event JSON with hook_event_name UserPromptSubmit, SessionStart, PostToolUse .*\n$/u) });
  }
  expect((await cursorsOf(db)).find((row) => row.watcher === MANAGER)).toMatchObject({ notified: 2, pending: true });
});

test('a usage error or a missing store: exit 1, never 2 (which the hosts read as "block the turn")', () => {
  expect(runHook('claude-code', 'not a key', ['--db', path.join(suite.path, 'any.db')], USER_PROMPT_SUBMIT)).toEqual({ status: 1, stdout: '', stderr: expect.stringContaining('--watcher') });
  const missing = runHook('codex', MANAGER, ['--db', path.join(suite.path, 'missing.db')], USER_PROMPT_SUBMIT);
  expect(missing).toEqual({ status: 1, stdout: '', stderr: expect.stringContaining('no state file at') });
});

test('a store that never answers: the hook gives up within its budget (4 s unless --budget), with one stderr line and exit 1', async () => {
  expect(spawnCli(['hook', '--help']).stdout).toContain('(default: 4s)');
  // A server that accepts connections and never says a word: a PostgreSQL client waits on it for ever.
  const sockets: net.Socket[] = [];
  const mute = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
  const { port } = mute.address() as net.AddressInfo;
  try {
    const run = runHook('claude-code', MANAGER, ['--db', `postgres://u:secret@127.0.0.1:${port}/db`, '--budget', '1s'], USER_PROMPT_SUBMIT);

    expect(run).toEqual({ status: 1, stdout: '', stderr: 'error: the store did not answer within 1 s; no notices this turn (they are kept for the next)\n' });
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => mute.close(resolve));
  }
});
