// The sliced merge sort behind the memory store's restart scan gives what one stable sort gives,
// across its run and merge boundaries, and lets the event loop run when a turn is spent.
import fc from 'fast-check';

import { sortInSlices, turnBudget, type TurnBudget } from '../src/slices.js';

const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key;

test('sortInSlices equals a stable sort of the same items (ties keep their order), across run and merge boundaries', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1025, maxLength: 5000 }), async (keys) => {
      const items = keys.map((key, at) => ({ key, at }));
      expect(await sortInSlices(items, byKey, turnBudget())).toEqual([...items].sort(byKey));
    }),
    { numRuns: 30 },
  );
});

test('sortInSlices lets the event loop run whenever the budget says the turn is spent', async () => {
  let yields = 0;
  const alwaysSpent: TurnBudget = {
    spent: () => true,
    yieldTurn: async () => {
      yields += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  const items = Array.from({ length: 10_000 }, (_, i) => ({ key: (i * 7919) % 10_007 }));
  expect(await sortInSlices(items, byKey, alwaysSpent)).toEqual([...items].sort(byKey));
  expect(yields).toBeGreaterThan(10);
});
