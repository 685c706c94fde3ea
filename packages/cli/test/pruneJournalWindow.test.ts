// `session-state prune` drives the journal's retention to its end: a batch that deleted no event
// and expired no cursor but moved the journal window on is progress, and the next batch resumes
// the journal where it stopped.
import type { PruneBatch, PruneRequest, StateStore } from '@session-state/domain';

import { pruneToCompletion } from '../src/commands/prune.js';

test('batches that only move the journal window on continue the run, each resuming where the last stopped', async () => {
  const answers: PruneBatch[] = [
    { eventsDeleted: 0, expiredCursors: [], done: false, journalAfter: 1000 },
    { eventsDeleted: 0, expiredCursors: [], done: false, journalAfter: 2000 },
    { eventsDeleted: 0, expiredCursors: [], done: true, journalAfter: 2400 },
  ];
  const requests: PruneRequest[] = [];
  const store = {
    prune: async (request: PruneRequest) => {
      requests.push(request);
      return answers[requests.length - 1] as PruneBatch;
    },
  } as unknown as StateStore;
  const run = await pruneToCompletion(store, { now: 10_000, maxAgeMs: 1000, maxRows: 10 });
  expect(run).toEqual({ eventsDeleted: 0, cursorsExpired: 0, interrupted: false });
  expect(requests.map((request) => request.journalAfter)).toEqual([undefined, 1000, 2000]);
});

test('a batch that neither deleted, expired nor moved the journal window ends the run (no progress)', async () => {
  let calls = 0;
  const store = {
    prune: async () => {
      calls += 1;
      return { eventsDeleted: 0, expiredCursors: [], done: false, journalAfter: 7 };
    },
  } as unknown as StateStore;
  await pruneToCompletion(store, { now: 10_000, maxAgeMs: 1000, maxRows: 10 });
  // The first batch moved the window (from the start to 7), the second did not.
  expect(calls).toBe(2);
});
