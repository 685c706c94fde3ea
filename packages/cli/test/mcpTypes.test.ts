// createAgentTools' types fit the MCP SDK's as they are: each tool is a `Tool` and each answer a
// `CallToolResult`, with no cast and no copy (tsc -b checks this file), and the SDK's own schemas
// accept them at runtime; each answer fits its tool's outputSchema, notices_wait's and one carrying notices too. The tools' `name` tells which
// answer a handler resolves with.
import { fromJsonSchema, isSpecType, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createAgentTools, createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';

let awareness: SessionStateAwareness;
beforeAll(async () => {
  awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: ':memory:' }), logger: { warn: () => undefined, error: () => undefined }, startup: { restartScan: false, prune: 'off' } });
  await awareness.childSpawned({ parentKey: 'agent:main:main', childKey: 'agent:main:subagent:child-7' });
});
afterAll(() => awareness.close());

test('every agent tool is an MCP Tool and every answer, a success or a tool error, an MCP CallToolResult, without casts', async () => {
  const { tools } = createAgentTools(awareness, { reader: 'agent:main:main', allowWrite: true });
  const listed: Tool[] = [...tools];
  expect(listed.map((tool) => isSpecType.Tool(tool))).toEqual([true, true, true]);

  for (const input of [{ sessionKey: 'agent:main:subagent:child-7', sessionKeys: [] }, { bad: true }]) {
    for (const tool of tools) {
      const answer: CallToolResult = await tool.handler(tool.name === 'sessions_list' ? { sessionKeys: ['agent:main:main'] } : input);
      expect(isSpecType.CallToolResult(answer)).toBe(true);
    }
  }
});

test('a tool is tagged by name, so its answer is typed: session_status answers stateVersion, sessions_list its rows, record its outcome', async () => {
  const { tools } = createAgentTools(awareness, { allowWrite: true });
  const seen: Record<string, unknown> = {};
  for (const tool of tools) {
    if (tool.name === 'session_status') {
      const answer = await tool.handler({ sessionKey: 'agent:main:subagent:child-7' });
      if (!answer.isError) seen[tool.name] = answer.structuredContent.stateVersion;
    } else if (tool.name === 'sessions_list') {
      const answer = await tool.handler({ sessionKeys: ['agent:main:subagent:child-7'] });
      if (!answer.isError) seen[tool.name] = answer.structuredContent.sessions[0]?.stateVersion;
    } else {
      const answer = await tool.handler({ sessionKey: 'not a key', kind: 'goal_changed', actorType: 'human', summary: 's' });
      if (answer.isError) seen[tool.name] = answer.structuredContent.error.code;
    }
  }
  expect(seen).toEqual({ session_status: 1, sessions_list: 1, record: 'invalid_input' });
});

test("every kind of successful answer fits its tool's outputSchema, by the SDK's own JSON Schema validator, and the schemas are closed", async () => {
  const { tools } = createAgentTools(awareness, { allowWrite: true });
  const child = 'agent:main:subagent:child-7';
  const inputs: Record<string, unknown[]> = {
    session_status: [{ sessionKey: child }, { sessionKey: child, changesSince: 0, limit: 1 }],
    sessions_list: [{ sessionKeys: [child, 'agent:never:logged'] }],
    record: [
      { sessionKey: child, kind: 'run_failed', actorType: 'agent', actorSessionKey: 'agent:main:main', summary: 'failed', payload: { outcome: 'error' } },
      { sessionKey: 'agent:main:subagent:unwatched', kind: 'goal_changed', actorType: 'human', summary: 'goal', onlyIfWatched: true },
    ],
  };
  const fits = async (schema: Tool['outputSchema'], value: unknown): Promise<boolean> =>
    (await fromJsonSchema(schema ?? {})['~standard'].validate(value)).issues === undefined;
  const outcomes: string[] = [];
  for (const tool of tools) {
    for (const input of inputs[tool.name] ?? []) {
      const answer = await tool.handler(input);
      if (answer.isError) throw new Error(`${tool.name} failed: ${answer.content[0].text}`);
      expect(await fits(tool.outputSchema, answer.structuredContent)).toBe(true);
      expect(await fits(tool.outputSchema, { ...answer.structuredContent, extra: true })).toBe(false);
      outcomes.push('outcome' in answer.structuredContent ? answer.structuredContent.outcome : tool.name);
    }
  }
  expect(outcomes).toEqual(['session_status', 'session_status', 'sessions_list', 'recorded', 'skipped']);
});

test('with notices, notices_wait and an answer carrying notices are an MCP Tool and CallToolResults that fit their outputSchemas', async () => {
  const { tools } = createAgentTools(awareness, { reader: 'agent:main:main', notices: true });
  const listed: Tool[] = [...tools];
  expect(listed.map((tool) => [tool.name, isSpecType.Tool(tool)])).toEqual([['session_status', true], ['sessions_list', true], ['notices_wait', true]]);
  const fits = async (schema: Tool['outputSchema'], value: unknown): Promise<boolean> => (await fromJsonSchema(schema ?? {})['~standard'].validate(value)).issues === undefined;
  const child = 'agent:main:subagent:child-7';
  expect((await awareness.record({ sessionKey: child, kind: 'human_direct_message', actorType: 'human', summary: 'a human turn' })).ok).toBe(true);

  const carrying: CallToolResult = await tools[1]!.handler({ sessionKeys: [child] });
  const waited: CallToolResult = await tools[2]!.handler({ timeoutSeconds: 0 });

  expect([isSpecType.CallToolResult(carrying), isSpecType.CallToolResult(waited)]).toEqual([true, true]);
  expect(carrying.structuredContent).toMatchObject({ notices: [{ target: child }] });
  expect(carrying.content).toHaveLength(2);
  expect([await fits(tools[1]!.outputSchema, carrying.structuredContent), await fits(tools[2]!.outputSchema, waited.structuredContent)]).toEqual([true, true]);
});
