// Notices reaching an agent outside a gateway, when the gateway that records is another process: the suite the
// SQLite file (mcpNotices.test.ts) and PostgreSQL (postgres/mcpNotices.test.ts) each run. A `session-state mcp
// --reader` server's notices_wait answers within a bounded delay (its timeout) after another process records, a
// cancel ends it at once, and the two-agent story plays end to end, through notices_wait and through the hook.
import { spawnSync } from 'node:child_process';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';

import { answerOf, connect, noticesOf } from './mcpClient.js';
import { CLI_MAIN, jsonOf, runCli, spawnCli, specNotice, type CliRun } from './runCli.js';

/** A store the suite runs on: its --db (and --schema) arguments, and a gateway's facade on it in this process. */
export interface NoticeStore {
  readonly args: readonly string[];
  readonly openGateway: () => Promise<SessionStateAwareness>;
}

type CursorRow = { watcher: string; target: string; acked: number; notified: number; material: number; pending: boolean };

/** A manager and its child of their own per test, so no test sees another's notices. */
let pairs = 0;
const pair = (): { manager: string; child: string } => {
  pairs += 1;
  return { manager: `agent:m${pairs}:main`, child: `agent:m${pairs}:subagent:researcher` };
};

/** The SQLite-file fixtures' keys: MANAGER and OPS watch CHILD. */
export const [MANAGER, OPS, CHILD] = ['agent:main:main', 'agent:ops:main', 'agent:main:subagent:child-7'];
export const silent = { warn: () => undefined, error: () => undefined };

/**
 * Makes `db` a fresh state file where MANAGER and OPS watch CHILD and a human turned in CHILD twice (both notified;
 * the second raises material above the frozen notified); resolves with its path.
 */
export async function stateFileWithPendingNotices(db: string): Promise<string> {
  const gateway = await createSessionStateAwareness({ store: openSqliteStore({ path: db }), logger: silent, startup: { restartScan: false, prune: 'off' } });
  try {
    await gateway.childSpawned({ parentKey: MANAGER, childKey: CHILD });
    await gateway.sent({ senderKey: OPS, deliveredTo: CHILD, watch: true });
    for (const summary of ['one', 'two']) {
      const outcome = await gateway.record({ sessionKey: CHILD, kind: 'human_direct_message', actorType: 'human', summary });
      if (!outcome.ok) throw new Error('the fixture record was refused');
    }
  } finally {
    await gateway.close();
  }
  return db;
}

/** What Claude Code writes on a hook's stdin at UserPromptSubmit (its hooks reference). */
export const USER_PROMPT_SUBMIT = { session_id: 'abc123', transcript_path: '/tmp/transcript.jsonl', cwd: '/tmp', permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt: 'carry on' };

/** Runs `session-state hook <host> --watcher <watcher>` as the host does, `input` as its stdin. */
export function runHook(host: string, watcher: string, args: readonly string[], input: unknown): CliRun {
  const run = spawnSync(process.execPath, [CLI_MAIN, 'hook', host, '--watcher', watcher, ...args], { input: typeof input === 'string' ? input : JSON.stringify(input), encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export function describeCrossProcessNotices(name: string, store: () => NoticeStore): void {
  const args = (): readonly string[] => store().args;
  /** Another process records a human turn on `child`; resolves with its sequence. */
  const humanTurnElsewhere = (child: string, summary: string): number => {
    const run = spawnCli(['record', child, '--kind', 'human_direct_message', '--actor', 'human', '--summary', summary, '--json', ...args()]);
    expect(run.status).toBe(0);
    return jsonOf<{ event: { sequence: number } }>(run).event.sequence;
  };
  const spawned = async ({ manager, child }: { manager: string; child: string }): Promise<number> => {
    const gateway = await store().openGateway();
    const result = await gateway.childSpawned({ parentKey: manager, childKey: child }).finally(() => gateway.close());
    if (!result.ok) throw result.error;
    return result.event.sequence;
  };
  const cursorOf = async (manager: string, child: string): Promise<CursorRow | undefined> =>
    jsonOf<CursorRow[]>(await runCli(['cursors', '--json', ...args()])).find((row) => row.watcher === manager && row.target === child);

  describe(`notices another process raises, on ${name}`, () => {
    test('notices_wait answers with the notice another process records while it waits, before its timeout', async () => {
      const keys = pair();
      const seeded = await spawned(keys);
      const session = await connect([...args(), '--reader', keys.manager]);
      try {
        const waiting = session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 10 } });
        await new Promise((resolve) => setTimeout(resolve, 200));
        humanTurnElsewhere(keys.child, 'a human turn');

        expect(answerOf(await waiting)).toEqual({ notices: [{ watcher: keys.manager, target: keys.child, changesSince: seeded, text: specNotice(keys.child, seeded) }] });
        expect(session.stderr()).toBe('');
      } finally {
        await session.client.close();
      }
    });

    test('a cancelled notices_wait ends at once and takes nothing: the notice recorded after it goes to the next wait', async () => {
      const keys = pair();
      const seeded = await spawned(keys);
      const session = await connect([...args(), '--reader', keys.manager]);
      try {
        const cancel = new AbortController();
        const cancelled = session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 300 } }, { signal: cancel.signal });
        await new Promise((resolve) => setTimeout(resolve, 200));
        cancel.abort();
        await expect(cancelled).rejects.toThrow();

        const waiting = session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 10 } });
        humanTurnElsewhere(keys.child, 'after the cancel');
        expect(answerOf(await waiting)).toMatchObject({ notices: [{ target: keys.child, changesSince: seeded }] });
      } finally {
        await session.client.close();
      }
    });

    test('the two-agent story through MCP: the manager waits, a human turn in its child reaches it once, and its session_status reconciles', async () => {
      const keys = pair();
      const seeded = await spawned(keys);
      const session = await connect([...args(), '--reader', keys.manager]);
      try {
        const waiting = session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 10 } });
        const turn = humanTurnElsewhere(keys.child, 'a human jumps in');
        const [notice] = answerOf(await waiting)['notices'] as { target: string; changesSince: number; text: string }[];
        expect(notice).toMatchObject({ target: keys.child, changesSince: seeded, text: specNotice(keys.child, seeded) });

        // The call the notice names, made as the reader.
        const status = await session.client.callTool({ name: 'session_status', arguments: { sessionKey: notice?.target, changesSince: notice?.changesSince } });
        expect(noticesOf(status)).toEqual([]);
        expect(status.structuredContent).toMatchObject({ stateVersion: turn, stateChanges: { events: [{ sequence: turn, kind: 'human_direct_message', summary: 'a human jumps in' }], hasMore: false } });
        expect(answerOf(await session.client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 1 } }))).toEqual({ notices: [] });
      } finally {
        await session.client.close();
      }
      expect(await cursorOf(keys.manager, keys.child)).toMatchObject({ acked: expect.any(Number), pending: false });
    });
  });

  test(`the two-agent story through the hook, on ${name}: the human turn another process records is printed once as additionalContext`, async () => {
    const keys = pair();
    const seeded = await spawned(keys);
    humanTurnElsewhere(keys.child, 'a human jumps in');

    const hooked = runHook('claude-code', keys.manager, args(), USER_PROMPT_SUBMIT);

    expect(hooked).toEqual({ status: 0, stderr: '', stdout: expect.any(String) });
    expect(JSON.parse(hooked.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: specNotice(keys.child, seeded) } });
    expect(await cursorOf(keys.manager, keys.child)).toMatchObject({ pending: false });
    expect(runHook('claude-code', keys.manager, args(), USER_PROMPT_SUBMIT)).toEqual({ status: 0, stdout: '', stderr: '' });
  });
}
