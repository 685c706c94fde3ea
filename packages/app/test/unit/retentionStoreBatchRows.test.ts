// The store's prune batch hint (StateStore.pruneBatchRows): a store that awaits a server fixes
// the rows of every batch, however long a call took; without the hint, batches are sized by time.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { PruneRequest, StateStore } from '@session-state/domain';

import { createSessionStateAwareness } from '../../src/index.js';
import { createRetention, PRUNE_BATCH_SIZE } from '../../src/retention.js';
import { recordingLogger } from '../support/harness.js';

/** Runs a prune of `calls` batches, each reporting `elapsedMs`; resolves with the batch sizes asked for. */
async function batchSizes(calls: number, elapsedMs: number, batchRows?: number): Promise<number[]> {
  const sizes: number[] = [];
  const retention = createRetention({
    policy: { maxAgeMs: 60_000, maxRows: 10 },
    ...(batchRows !== undefined ? { batchRows } : {}),
    now: () => 1_000_000,
    pruneBatch: (request) => {
      sizes.push(request.batchSize);
      return Promise.resolve({ batch: { eventsDeleted: request.batchSize, expiredCursors: [], done: sizes.length === calls }, elapsedMs });
    },
    onBatch: () => undefined,
    onRun: () => undefined,
    onBackgroundError: () => undefined,
  });
  await retention.runNow();
  return sizes;
}

test('with the store fixing its batch rows, every batch asks for exactly that many, even when each call is slow', async () => {
  expect(await batchSizes(4, 500, 10_000)).toEqual([10_000, 10_000, 10_000, 10_000]);
});

test('without the hint, slow calls shrink the batches (sized by time)', async () => {
  expect(await batchSizes(3, 500)).toEqual([PRUNE_BATCH_SIZE, PRUNE_BATCH_SIZE / 2, PRUNE_BATCH_SIZE / 4]);
});

test("the facade passes a store's pruneBatchRows to every prune call", async () => {
  const memory = createMemoryStore();
  const requests: PruneRequest[] = [];
  const store: StateStore = {
    ...memory,
    pruneBatchRows: 7,
    prune: (request) => {
      requests.push(request);
      return memory.prune(request);
    },
  };
  const awareness = await createSessionStateAwareness({ store, logger: recordingLogger(), startup: { restartScan: false, prune: 'off' } });
  try {
    await awareness.prune();
    expect(requests.map((request) => request.batchSize)).toEqual([7]);
  } finally {
    await awareness.close();
  }
});
