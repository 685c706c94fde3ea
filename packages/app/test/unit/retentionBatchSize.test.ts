// Prune batches have fixed sizes: the first store call of a run asks for PRUNE_FIRST_BATCH_SIZE
// events, every later one for PRUNE_BATCH_SIZE, however long a call took.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { PruneRequest, StateStore } from '@session-state/domain';

import { createSessionStateAwareness } from '../../src/index.js';
import { createRetention, PRUNE_BATCH_SIZE, PRUNE_FIRST_BATCH_SIZE } from '../../src/retention.js';
import { recordingLogger } from '../support/harness.js';

/** Runs a prune of `calls` batches, each taking `delayMs`; resolves with the batch sizes asked for. */
async function batchSizes(calls: number, delayMs: number): Promise<number[]> {
  const sizes: number[] = [];
  const retention = createRetention({
    policy: { maxAgeMs: 60_000, maxRows: 10 },
    now: () => 1_000_000,
    pruneBatch: async (request) => {
      sizes.push(request.batchSize);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { eventsDeleted: request.batchSize, expiredCursors: [], done: sizes.length === calls };
    },
    onBatch: () => undefined,
    onRun: () => undefined,
    onBackgroundError: () => undefined,
  });
  await retention.runNow();
  return sizes;
}

test('the first batch asks for PRUNE_FIRST_BATCH_SIZE events, every later one for PRUNE_BATCH_SIZE, however long each call takes', async () => {
  expect([PRUNE_FIRST_BATCH_SIZE, PRUNE_BATCH_SIZE]).toEqual([1000, 10_000]);
  expect(await batchSizes(4, 20)).toEqual([PRUNE_FIRST_BATCH_SIZE, PRUNE_BATCH_SIZE, PRUNE_BATCH_SIZE, PRUNE_BATCH_SIZE]);
  expect(await batchSizes(3, 0)).toEqual([PRUNE_FIRST_BATCH_SIZE, PRUNE_BATCH_SIZE, PRUNE_BATCH_SIZE]);
});

test('the facade passes the batch sizes to its prune calls', async () => {
  const memory = createMemoryStore();
  const requests: PruneRequest[] = [];
  const store: StateStore = {
    ...memory,
    prune: (request) => {
      requests.push(request);
      return memory.prune(request);
    },
  };
  const awareness = await createSessionStateAwareness({ store, logger: recordingLogger(), startup: { restartScan: false, prune: 'off' } });
  try {
    await awareness.prune();
    expect(requests.map((request) => request.batchSize)).toEqual([PRUNE_FIRST_BATCH_SIZE]);
  } finally {
    await awareness.close();
  }
});
