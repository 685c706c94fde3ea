// The memory store's append of a batch: a request that fails alone is a `failed` outcome beside
// the others, and a closed store rejects the whole call with a StoreError naming `append`.
import { decodeRecordInput, type AppendRequest, type SessionKey } from '@session-state/domain';

import { createMemoryStore } from '../src/index.js';

const KEY = 'agent:main:subagent:c1' as SessionKey;

function request(appendedAt: number): AppendRequest {
  const decoded = decodeRecordInput({ sessionKey: KEY, kind: 'goal_changed', actorType: 'agent', summary: 'a change' });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt };
}

test('a request that fails alone is a failed outcome, and the others of the batch are appended', async () => {
  const store = createMemoryStore();
  const outcomes = await store.append([request(1_000), request(Number.NaN), request(2_000)]);
  expect(outcomes.map((o) => o.type)).toStrictEqual(['appended', 'failed', 'appended']);
  expect(outcomes[1]?.type === 'failed' && outcomes[1].error).toMatchObject({ _tag: 'StoreError', operation: 'append' });
});

test('after close, append rejects with a StoreError naming append', async () => {
  const store = createMemoryStore();
  await store.close();
  await expect(store.append([request(1_000)])).rejects.toMatchObject({ _tag: 'StoreError', operation: 'append', message: expect.stringContaining('closed') });
});
