// The agent's tools (createAgentTools) on every store: session_status answers the notice's own
// call with the product's JSON, sessions_list gives state versions, the sessions_send watch part
// registers a watch, record is offered only with allowWrite, and every failure is a tool error the
// model can read (never an exception, never message content).
import { noticeText, asSequence } from '@session-state/domain';
import { storeMatrix, type FaultStore, type StoreKind } from '@session-state/testkit';

import { createAgentTools, InvalidInputError, type AgentTool, type AgentToolResult, type SessionStateAwareness, type StatusOptions } from '../src/index.js';
import { CHILD, humanTurn, openFaultyFixture, PARENT, PEER, type Fixture } from './support/harness.js';

const SECRET = 'the human wrote something private here';

function toolNamed(tools: readonly AgentTool[], name: string): AgentTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** The answer's JSON, after checking that its text block carries the same JSON. */
function jsonOf(result: AgentToolResult): Record<string, unknown> {
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

async function recordedSequence(f: Fixture, sessionKey: string, summary = 'human message via telegram'): Promise<number> {
  const result = await f.awareness.record(humanTurn(sessionKey, { summary }));
  if (!result.ok || !('event' in result)) throw new Error('expected a recorded event');
  return result.event.sequence;
}

describe.each(storeMatrix)('agent tools on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  let faults: FaultStore;
  beforeEach(async () => {
    ({ fixture: f, faults } = await openFaultyFixture(kind));
  });
  afterEach(() => f.dispose());

  test('session_status called as the notice says returns the product JSON of the change', async () => {
    const spawn = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    if (!spawn.ok) throw spawn.error;
    const seeded = spawn.event.sequence;
    const changed = await recordedSequence(f, CHILD);
    const status = toolNamed(createAgentTools(f.awareness).tools, 'session_status');

    // The call the notice text names, read back from the text itself.
    const call = /: (\w+) sessionKey "([^"]+)" changesSince (\d+)\.$/u.exec(noticeText(CHILD, asSequence(seeded)));
    expect(call?.[1]).toBe(status.name);
    const result = await status.handler({ sessionKey: call?.[2], changesSince: Number(call?.[3]) });

    expect(result.isError).toBe(false);
    expect(jsonOf(result)).toEqual({
      sessionKey: CHILD,
      stateVersion: changed,
      stateChanges: {
        events: [
          {
            sequence: changed,
            kind: 'human_direct_message',
            actorType: 'human',
            summary: 'human message via telegram',
            occurredAt: expect.any(String),
            payload: { channel: 'telegram' },
          },
        ],
        historyGap: false,
        earliestRetained: seeded,
        hasMore: false,
        nextSince: changed,
      },
    });
  });

  test('session_status pages with limit and nextSince, and without changesSince gives only the state version', async () => {
    const first = await recordedSequence(f, PEER, 'turn 1');
    const second = await recordedSequence(f, PEER, 'turn 2');
    const status = toolNamed(createAgentTools(f.awareness).tools, 'session_status');

    const page = jsonOf(await status.handler({ sessionKey: PEER, changesSince: 0, limit: 1 }));
    expect(page['stateChanges']).toMatchObject({ events: [{ sequence: first }], hasMore: true, nextSince: first });
    const rest = jsonOf(await status.handler({ sessionKey: PEER, changesSince: first, limit: 1 }));
    expect(rest['stateChanges']).toMatchObject({ events: [{ sequence: second }], hasMore: false, nextSince: second });
    expect(jsonOf(await status.handler({ sessionKey: PEER }))).toEqual({ sessionKey: PEER, stateVersion: second });
  });

  test.each([
    ['a negative changesSince', { sessionKey: CHILD, changesSince: -1 }, 'session_status.changesSince'],
    ['a limit above 200', { sessionKey: CHILD, changesSince: 0, limit: 201 }, 'session_status.limit'],
    ['a session key holding a sentence', { sessionKey: SECRET }, 'session_status.sessionKey'],
    ['no session key', { changesSince: 0 }, 'session_status.sessionKey'],
    ['an unknown argument', { sessionKey: CHILD, since: 3 }, 'session_status.since'],
  ])('session_status with %s is a tool error naming the argument, without echoing it', async (_case, input, field) => {
    const status = toolNamed(createAgentTools(f.awareness).tools, 'session_status');

    const result = await status.handler(input);

    expect(result.isError).toBe(true);
    expect(jsonOf(result)).toEqual({ error: { code: 'invalid_input', message: expect.stringContaining(field), field, expected: expect.any(String) } });
    expect(result.content[0].text).not.toContain(SECRET);
  });

  test.each([null, 'agent:main:main', [CHILD]])('session_status with a non-object input (%p) is a tool error', async (input) => {
    const result = await toolNamed(createAgentTools(f.awareness).tools, 'session_status').handler(input);

    expect(result.isError).toBe(true);
    expect(jsonOf(result)).toMatchObject({ error: { code: 'invalid_input', field: 'session_status' } });
  });

  test('a failing store is an unavailable tool error with no driver words, and the next call works', async () => {
    const version = await recordedSequence(f, PEER);
    const status = toolNamed(createAgentTools(f.awareness).tools, 'session_status');
    faults.failNext('readChanges', 1, 'throw');

    const failed = await status.handler({ sessionKey: PEER, changesSince: 0 });

    expect(failed.isError).toBe(true);
    expect(jsonOf(failed)).toEqual({ error: { code: 'unavailable', message: expect.stringContaining('session_status') } });
    expect(failed.content[0].text).not.toContain('injected');
    expect(jsonOf(await status.handler({ sessionKey: PEER, changesSince: 0 }))).toMatchObject({ stateVersion: version });
  });

  test('sessions_list gives one row per key, with stateVersion only for sessions that logged', async () => {
    const version = await recordedSequence(f, PEER);
    const list = toolNamed(createAgentTools(f.awareness).tools, 'sessions_list');

    expect(jsonOf(await list.handler({ sessionKeys: [PEER, CHILD] }))).toEqual({ sessions: [{ sessionKey: PEER, stateVersion: version }, { sessionKey: CHILD }] });
    const bad = await list.handler({ sessionKeys: [PEER, 'two words'] });
    expect(bad.isError).toBe(true);
    expect(jsonOf(bad)).toMatchObject({ error: { code: 'invalid_input', field: 'sessions_list.sessionKeys.1' } });
  });

  test('sessions_send watch: true registers the watch, so a later human message notifies the sender', async () => {
    const { sessionsSend } = createAgentTools(f.awareness);

    expect(await sessionsSend.afterSend({ senderKey: PARENT, deliveredTo: PEER, watch: true })).toEqual({ watched: true });
    expect(f.awareness.pending(PARENT)).toHaveLength(0);
    await recordedSequence(f, PEER);

    expect(f.awareness.pending(PARENT)).toHaveLength(1);
    expect(sessionsSend.inputProperties.watch).toMatchObject({ type: 'boolean' });
  });

  test.each([
    ['watch absent', { senderKey: PARENT, deliveredTo: PEER, watch: undefined }],
    ['watch false', { senderKey: PARENT, deliveredTo: PEER, watch: false }],
    ['an undelivered message', { senderKey: PARENT, deliveredTo: PEER, watch: true, delivered: false }],
    ['a send to itself', { senderKey: PARENT, deliveredTo: PARENT, watch: true }],
  ])('sessions_send with %s watches nothing', async (_case, input) => {
    expect(await createAgentTools(f.awareness).sessionsSend.afterSend(input)).toEqual({ watched: false });
    await recordedSequence(f, PEER);
    await recordedSequence(f, PARENT);

    expect(f.awareness.pending(PARENT)).toHaveLength(0);
  });

  test('sessions_send with a watch that is not a boolean answers watched: false with a readable error', async () => {
    const result = await createAgentTools(f.awareness).sessionsSend.afterSend({ senderKey: PARENT, deliveredTo: PEER, watch: SECRET });

    expect(result).toMatchObject({ watched: false, error: { code: 'invalid_input', field: 'sessions_send.watch' } });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    await recordedSequence(f, PEER);
    expect(f.awareness.pending(PARENT)).toHaveLength(0);
  });

  test('record is offered only with allowWrite, records through the facade and rejects a bad field as a tool error', async () => {
    expect(createAgentTools(f.awareness).tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list']);
    const record = toolNamed(createAgentTools(f.awareness, { allowWrite: true }).tools, 'record');

    const recorded = jsonOf(await record.handler({ sessionKey: PEER, kind: 'goal_changed', actorType: 'agent', summary: 'goal set' }));
    expect(recorded).toMatchObject({ outcome: 'recorded', event: { sessionKey: PEER, kind: 'goal_changed', summary: 'goal set' } });
    expect((await f.awareness.status(PEER)).stateVersion).toBe((recorded['event'] as { sequence: number }).sequence);

    expect(jsonOf(await record.handler({ ...humanTurn(CHILD), onlyIfWatched: true }))).toEqual({ outcome: 'skipped', reason: 'unwatched' });

    const bad = await record.handler({ sessionKey: PEER, kind: 'run_failed', actorType: 'system', summary: SECRET, payload: { outcome: 'lost' } });
    expect(bad.isError).toBe(true);
    expect(jsonOf(bad)).toMatchObject({ error: { code: 'invalid_input', field: 'record.payload.outcome' } });
    expect(bad.content[0].text).not.toContain(SECRET);
  });
});

// --- options and the reader ---------------------------------------------------------------------

/** A facade whose only working method is `status`, which records the options it was given. */
function statusSpy(): { awareness: SessionStateAwareness; seen: (StatusOptions | undefined)[] } {
  const seen: (StatusOptions | undefined)[] = [];
  const awareness = {
    status: async (sessionKey: string, options?: StatusOptions) => {
      seen.push(options);
      return { sessionKey, stateVersion: 0 };
    },
  } as unknown as SessionStateAwareness;
  return { awareness, seen };
}

describe('createAgentTools options', () => {
  test('with a reader, a session_status read with changesSince passes it (acknowledging); a bare version check does not', async () => {
    const { awareness, seen } = statusSpy();
    const status = toolNamed(createAgentTools(awareness, { reader: PARENT }).tools, 'session_status');

    await status.handler({ sessionKey: CHILD, changesSince: 4, limit: 10 });
    await status.handler({ sessionKey: CHILD });

    expect(seen).toEqual([{ changesSince: 4, limit: 10, reader: PARENT }, {}]);
    expect(status.description).toContain('marks those changes as seen');
  });

  test('without a reader, session_status never passes one (reads stay read-only)', async () => {
    const { awareness, seen } = statusSpy();

    await toolNamed(createAgentTools(awareness).tools, 'session_status').handler({ sessionKey: CHILD, changesSince: 4 });

    expect(seen).toEqual([{ changesSince: 4 }]);
  });

  test.each([
    ['a reader that is not a session key', { reader: 'two words' }, 'createAgentTools.options.reader'],
    ['allowWrite that is not a boolean', { allowWrite: 'yes' }, 'createAgentTools.options.allowWrite'],
    ['an unknown option', { readers: PARENT }, 'createAgentTools.options.readers'],
  ])('%s is rejected at setup, naming the option', (_case, options, field) => {
    const { awareness } = statusSpy();

    expect(() => createAgentTools(awareness, options as never)).toThrow(InvalidInputError);
    expect(() => createAgentTools(awareness, options as never)).toThrow(field);
  });

  test('every input schema is a closed object whose required arguments it defines', () => {
    const { awareness } = statusSpy();
    for (const tool of createAgentTools(awareness, { allowWrite: true }).tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      for (const name of tool.inputSchema.required ?? []) expect(Object.keys(tool.inputSchema.properties)).toContain(name);
      expect(tool.description.length).toBeGreaterThan(100);
    }
  });
});
