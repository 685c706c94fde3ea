// The time-sized prune batch: it moves towards the target time per store call, at most halving
// or doubling per step, within its bounds.
import fc from 'fast-check';

import { nextBatchSize, PRUNE_BATCH_MAX, PRUNE_BATCH_MIN, PRUNE_BATCH_TARGET_MS } from '../../src/retention.js';

test('a call over the target time shrinks the batch, one under half of it grows the batch', () => {
  expect(nextBatchSize(1000, PRUNE_BATCH_TARGET_MS * 4)).toBe(500);
  expect(nextBatchSize(1000, PRUNE_BATCH_TARGET_MS * 1.25)).toBe(800);
  expect(nextBatchSize(1000, PRUNE_BATCH_TARGET_MS / 4)).toBe(2000);
  expect(nextBatchSize(1000, PRUNE_BATCH_TARGET_MS)).toBe(1000);
});

test('a call that took no measurable time doubles the batch', () => {
  expect(nextBatchSize(300, 0)).toBe(600);
});

test('for any size and time: within [MIN, MAX], at most halved or doubled, never moving away from the target', () => {
  fc.assert(
    fc.property(fc.integer({ min: PRUNE_BATCH_MIN, max: PRUNE_BATCH_MAX }), fc.double({ min: 0, max: 1000, noNaN: true }), (size, elapsedMs) => {
      const next = nextBatchSize(size, elapsedMs);
      expect(next).toBeGreaterThanOrEqual(PRUNE_BATCH_MIN);
      expect(next).toBeLessThanOrEqual(PRUNE_BATCH_MAX);
      expect(next).toBeGreaterThanOrEqual(Math.min(Math.floor(size / 2), size));
      expect(next).toBeLessThanOrEqual(size * 2);
      if (elapsedMs > PRUNE_BATCH_TARGET_MS) expect(next).toBeLessThanOrEqual(size);
      if (elapsedMs < PRUNE_BATCH_TARGET_MS) expect(next).toBeGreaterThanOrEqual(size);
    }),
  );
});
