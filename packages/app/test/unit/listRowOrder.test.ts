// `list` pairs each key with the store's head row: the answer must not depend on the rows' order,
// on repeats or on keys without a head.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { StateStore } from '@session-state/domain';

import { createSessionStateAwareness } from '../../src/index.js';
import { recordingLogger } from '../support/harness.js';

const A = 'agent:a:main';
const B = 'agent:b:main';
const C = 'agent:c:main';
const NONE = 'agent:none:main';

type HeadRows = Awaited<ReturnType<StateStore['readHeads']>>;

async function listOver(order: (rows: HeadRows) => HeadRows, keys: string[]) {
  const memory = createMemoryStore();
  const store: StateStore = { ...memory, readHeads: async (sessionKeys) => order(await memory.readHeads(sessionKeys)) };
  const awareness = await createSessionStateAwareness({ store, logger: recordingLogger(), startup: { restartScan: false, prune: 'off' } });
  try {
    const versions: Record<string, number> = {};
    for (const key of [A, B, C, A]) {
      const result = await awareness.record({ sessionKey: key, kind: 'goal_changed', actorType: 'human', summary: 'a change' });
      if (!result.ok || result.outcome !== 'recorded') throw new Error('record failed');
      versions[key] = result.event.sequence;
    }
    return { rows: await awareness.list(keys), versions };
  } finally {
    await awareness.close();
  }
}

test.each<[string, (rows: HeadRows) => HeadRows]>([
  ['in the order first given', (rows) => rows],
  ['reversed', (rows) => [...rows].reverse()],
  ['with a repeat of each row', (rows) => [...rows, ...rows]],
])('rows %s: every key gets its own head, keys without one get none, repeats repeat', async (_name, order) => {
  const keys = [B, NONE, A, C, B, NONE, A];
  const { rows, versions } = await listOver(order, keys);
  expect(rows).toEqual(keys.map((key) => (versions[key] === undefined ? { sessionKey: key } : { sessionKey: key, stateVersion: versions[key] })));
});
