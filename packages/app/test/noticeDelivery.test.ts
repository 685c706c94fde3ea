// createAgentTools with `notices`, for an agent no gateway prompts: notices_wait (a long poll the facade's wake ends)
// and the reader's pending notices attached to every other answer, taken until `delivered(answer)` confirms them, and
// handed out again when the lease ends if the answer never reached the model.
import { createMemoryStore } from '@session-state/adapters-memory';
import { asSequence, noticeText } from '@session-state/domain';

import { createAgentTools, createSessionStateAwareness, InvalidInputError, type AgentTool, type AgentTools, type SessionStateAwareness } from '../src/index.js';
import { CHILD, humanTurn, OTHER_CHILD, PARENT } from './support/harness.js';

const LEASE_MS = 300;
const silent = { warn: () => undefined, error: () => undefined };

let awareness: SessionStateAwareness;
let agent: AgentTools;
beforeEach(async () => {
  let wake = (_watcherKey: string): void => undefined;
  awareness = await createSessionStateAwareness({ store: createMemoryStore(), logger: silent, leaseMs: LEASE_MS, wake: (key) => wake(key), startup: { prune: 'off' } });
  agent = createAgentTools(awareness, { reader: PARENT, notices: true });
  wake = agent.wake;
  for (const child of [CHILD, OTHER_CHILD]) expect((await awareness.childSpawned({ parentKey: PARENT, childKey: child })).ok).toBe(true);
});
afterEach(() => awareness.close());

const toolNamed = (name: string): AgentTool => {
  const tool = agent.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};
const noticeOn = (target: string, acked: number) => ({ watcher: PARENT, target, changesSince: acked, text: noticeText(target, asSequence(acked)) });

test('notices_wait answers a notice recorded while it waits; delivered, the notice is confirmed and not offered again', async () => {
  const waiting = toolNamed('notices_wait').handler({ timeoutSeconds: 60 });
  expect((await awareness.record(humanTurn(CHILD))).ok).toBe(true);

  const answer = await waiting;
  expect(answer).toEqual({ isError: false, content: [{ type: 'text', text: JSON.stringify({ notices: [noticeOn(CHILD, 1)] }) }], structuredContent: { notices: [noticeOn(CHILD, 1)] } });
  expect(awareness.pending(PARENT)).toEqual([]);
  await agent.delivered(answer);

  expect(awareness.metrics()).toMatchObject({ noticesTaken: 1, noticesConfirmed: 1 });
  expect((await toolNamed('notices_wait').handler({ timeoutSeconds: 0 })).structuredContent).toEqual({ notices: [] });
});

test('every other answer carries the pending notices once: in structuredContent.notices and as a second text block of their lines', async () => {
  for (const child of [CHILD, OTHER_CHILD]) expect((await awareness.record(humanTurn(child))).ok).toBe(true);
  const list = toolNamed('sessions_list');
  expect(list.outputSchema.properties).toHaveProperty('notices');

  const first = await list.handler({ sessionKeys: [CHILD] });
  const notices = [noticeOn(CHILD, 1), noticeOn(OTHER_CHILD, 2)];
  expect(first).toEqual({
    isError: false,
    content: [{ type: 'text', text: JSON.stringify({ sessions: [{ sessionKey: CHILD, stateVersion: 3 }] }) }, { type: 'text', text: notices.map((notice) => notice.text).join('\n') }],
    structuredContent: { sessions: [{ sessionKey: CHILD, stateVersion: 3 }], notices },
  });
  await agent.delivered(first);

  // A tool error carries them too; now there are none.
  const second = await toolNamed('session_status').handler({ sessionKey: 'not a key' });
  expect(second).toMatchObject({ isError: true, structuredContent: { error: { code: 'invalid_input' } } });
  expect(second.content).toHaveLength(1);
  expect(awareness.metrics()).toMatchObject({ noticesTaken: 2, noticesConfirmed: 2 });
});

test('an answer never delivered leaves its notices unconfirmed: when the lease ends they wake a waiting notices_wait', async () => {
  expect((await awareness.record(humanTurn(CHILD))).ok).toBe(true);
  const lost = await toolNamed('session_status').handler({ sessionKey: OTHER_CHILD });
  expect(lost.structuredContent.notices).toEqual([noticeOn(CHILD, 1)]);
  expect(awareness.pending(PARENT)).toEqual([]);

  const again = await toolNamed('notices_wait').handler({ timeoutSeconds: 60 });

  expect(again.structuredContent.notices).toEqual([noticeOn(CHILD, 1)]);
  await agent.delivered(again);
  // The lost answer's notices were handed out again and confirmed there: delivering it late acknowledges nothing more.
  await agent.delivered(lost);
  expect(awareness.metrics()).toMatchObject({ noticesTaken: 2, noticesConfirmed: 1 });
});

test('an aborted notices_wait answers at once with no notice and takes nothing', async () => {
  const cancel = new AbortController();
  const waiting = toolNamed('notices_wait').handler({ timeoutSeconds: 300 }, { signal: cancel.signal });
  cancel.abort();
  expect((await waiting).structuredContent).toEqual({ notices: [] });

  expect((await awareness.record(humanTurn(CHILD))).ok).toBe(true);
  expect(awareness.pending(PARENT)).toEqual([noticeOn(CHILD, 1)]);
  expect(awareness.metrics().noticesTaken).toBe(0);
});

test('notices_wait refuses a timeout above 300 s or an unknown field, naming it; notices without a reader is refused at setup', async () => {
  const bad = await toolNamed('notices_wait').handler({ timeoutSeconds: 301 });
  expect(bad.structuredContent).toMatchObject({ error: { code: 'invalid_input', field: 'notices_wait.timeoutSeconds', expected: 'an integer from 0 to 300' } });
  expect((await toolNamed('notices_wait').handler({ watcher: PARENT })).structuredContent).toMatchObject({ error: { field: 'notices_wait.watcher' } });
  expect(() => createAgentTools(awareness, { notices: true })).toThrow(InvalidInputError);
});

test('without notices there is no notices_wait and answers carry none: the notices stay for the gateway to render', async () => {
  const plain = createAgentTools(awareness, { reader: PARENT });
  expect(plain.tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list']);
  expect((await awareness.record(humanTurn(CHILD))).ok).toBe(true);

  const answer = await plain.tools[1]!.handler({ sessionKeys: [CHILD] });

  expect(answer.content).toHaveLength(1);
  expect(answer.structuredContent).not.toHaveProperty('notices');
  expect(awareness.pending(PARENT)).toEqual([noticeOn(CHILD, 1)]);
});
