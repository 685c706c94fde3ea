// A failed record or childSpawned carries a typed error: its `name` tells which one it is, and
// narrowing on it gives that error's own fields with no cast (tsc -b checks this file).
import { createMemoryStore } from '@session-state/adapters-memory';
import { createSessionStateAwareness } from '@session-state/app';

const quiet = { warn: () => undefined, error: () => undefined };

test("a failed result's error is told apart by name with no cast: InvalidInputError has field and expected, ClosedError its operation", async () => {
  const awareness = await createSessionStateAwareness({ store: createMemoryStore(), logger: quiet });
  const invalid = await awareness.record({ sessionKey: 'not a key', kind: 'goal_changed', actorType: 'human', summary: 'goal edited' });
  await awareness.close();
  const closed = await awareness.record({ sessionKey: 'agent:main:main', kind: 'goal_changed', actorType: 'human', summary: 'goal edited' });
  const spawned = await awareness.childSpawned({ parentKey: 'agent:main:main', childKey: 'agent:main:subagent:child-7' });

  const seen: string[] = [];
  for (const result of [invalid, closed]) {
    if (result.ok) continue;
    const { error } = result;
    if (error.name === 'InvalidInputError') seen.push(`${error.field}: ${error.expected}`);
    else seen.push(`${error.name} in ${error.operation}: ${error.message}`);
  }
  // childSpawned rejects invalid input, so its failed result never holds an InvalidInputError.
  const spawnError: 'StoreOperationError' | 'ClockError' | 'ClosedError' | undefined = spawned.ok ? undefined : spawned.error.name;

  expect(seen).toEqual([expect.stringMatching(/^record\.sessionKey: /u), 'ClosedError in record: session-state record called after close()']);
  expect(spawnError).toBe('ClosedError');
});
