// The prune run carries the store's journal window from batch to batch: each request resumes the
// journal's retention where the previous batch stopped (PruneBatch.journalAfter), and a run starts
// from the journal's start.
import type { PruneBatch, PruneRequest } from '@session-state/domain';

import { createRetention } from '../../src/retention.js';

/** A retention whose store answers `batches` in turn and records every request it was given. */
function recording(batches: readonly PruneBatch[]) {
  const requests: PruneRequest[] = [];
  let next = 0;
  const retention = createRetention({
    policy: { maxAgeMs: 1000, maxRows: 10 },
    now: () => 5000,
    pruneBatch: async (request) => {
      requests.push(request);
      const batch = batches[next % batches.length] as PruneBatch;
      next += 1;
      return batch;
    },
    onBatch: () => undefined,
    onRun: () => undefined,
    onBackgroundError: (error) => {
      throw error;
    },
  });
  return { retention, requests };
}

test('each batch of a run resumes the journal after the previous batch; the next run starts over', async () => {
  const { retention, requests } = recording([
    { eventsDeleted: 0, expiredCursors: [], done: false, journalAfter: 40 },
    { eventsDeleted: 0, expiredCursors: [], done: false, journalAfter: 95 },
    { eventsDeleted: 0, expiredCursors: [], done: true, journalAfter: 120 },
  ]);
  await retention.runNow();
  expect(requests.map((request) => request.journalAfter)).toEqual([undefined, 40, 95]);
  await retention.runNow();
  expect(requests[3]?.journalAfter).toBeUndefined();
});

test('a store that does not window its journal (no journalAfter) gets none back', async () => {
  const { retention, requests } = recording([
    { eventsDeleted: 1, expiredCursors: [], done: false },
    { eventsDeleted: 0, expiredCursors: [], done: true },
  ]);
  await retention.runNow();
  expect(requests.map((request) => 'journalAfter' in request)).toEqual([false, false]);
});
