// Under exactOptionalPropertyTypes a gateway may pass an explicit `undefined` for every optional
// option and input field (as `{ reader: config.reader }` does when it is unset): the types accept
// it (./tsconfig.json compiles this file with the flag) and the runtime treats it as absent.
import { createMemoryStore } from '@session-state/adapters-memory';
import { createAgentTools, createSessionStateAwareness } from '@session-state/app';

const PARENT = 'agent:main:main';
const CHILD = 'agent:main:subagent:child-7';

test('every optional option and input field takes an explicit undefined, in the types and at runtime, as if it were absent', async () => {
  const awareness = await createSessionStateAwareness({
    store: createMemoryStore(),
    clock: undefined,
    logger: undefined,
    wake: undefined,
    observer: { appendBatch: undefined, pruneRun: undefined },
    retention: { maxAgeMs: undefined, maxRows: undefined, cursorMaxAgeMs: undefined },
    ownsSession: undefined,
    resyncIntervalMs: undefined,
    startup: { restartScan: undefined, prune: undefined },
  });
  const spawned = await awareness.childSpawned({ parentKey: PARENT, childKey: CHILD, summary: undefined, dedupeKey: undefined });
  const recorded = await awareness.record({
    sessionKey: CHILD,
    kind: 'human_direct_message',
    actorType: 'human',
    summary: 'human message via telegram',
    actorSessionKey: undefined,
    payload: undefined,
    dedupeKey: undefined,
    occurredAt: undefined,
    onlyIfWatched: undefined,
  });
  const sent = await awareness.sent({ senderKey: PARENT, deliveredTo: CHILD, watch: true, delivered: undefined });
  const status = await awareness.status(CHILD, { changesSince: undefined, limit: undefined, reader: undefined });
  const { tools, sessionsSend } = createAgentTools(awareness, { reader: undefined, allowWrite: undefined });
  const afterSend = await sessionsSend.afterSend({ senderKey: PARENT, deliveredTo: CHILD, watch: undefined, delivered: undefined });
  await awareness.close();

  expect([spawned.outcome, recorded.outcome]).toEqual(['recorded', 'recorded']);
  expect(sent).toEqual({ watched: true });
  expect(status).toEqual({ sessionKey: CHILD, stateVersion: 2 });
  expect(tools.map((tool) => tool.name)).toEqual(['session_status', 'sessions_list']);
  expect(afterSend).toEqual({ watched: false });
});
