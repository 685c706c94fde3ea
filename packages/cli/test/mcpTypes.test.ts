// createAgentTools' types fit the MCP SDK's as they are: each tool is a `Tool` and each answer a
// `CallToolResult`, with no cast and no copy (tsc -b checks this file), and the SDK's own schemas
// accept them at runtime. The tools' `name` tells which answer a handler resolves with.
import { CallToolResultSchema, ToolSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
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
  expect(listed.map((tool) => ToolSchema.safeParse(tool).success)).toEqual([true, true, true]);

  for (const input of [{ sessionKey: 'agent:main:subagent:child-7', sessionKeys: [] }, { bad: true }]) {
    for (const tool of tools) {
      const answer: CallToolResult = await tool.handler(tool.name === 'sessions_list' ? { sessionKeys: ['agent:main:main'] } : input);
      expect(CallToolResultSchema.safeParse(answer).success).toBe(true);
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
