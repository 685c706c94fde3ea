// How a windowed journal-retention batch ends: every batch that is not done resumes above where
// it started (so a run ends after one pass), a cap stopped at its room resumes after its last
// delete, and a journal within its cap with nothing aged ahead is done before its end.
import fc from 'fast-check';

import { journalWindowEnd, type JournalWindowFacts } from '../src/cursor/journalWindow.js';

const facts = (overrides: Partial<JournalWindowFacts>): JournalWindowFacts => ({
  after: 100,
  lastExamined: 200,
  reachesEnd: false,
  excess: 0,
  take: 0,
  capped: 0,
  lastCapped: 100,
  agedBeyond: false,
  ...overrides,
});

test('a cap stopped at its room with entries still beyond the cap resumes after its last delete, not done', () => {
  expect(journalWindowEnd(facts({ excess: 50, take: 10, capped: 10, lastCapped: 140 }))).toEqual({ journalAfter: 140, done: false });
});

test('a window with nothing removable, over the cap, moves on after the window; done only at the end of the journal', () => {
  expect(journalWindowEnd(facts({ excess: 50, take: 10 }))).toEqual({ journalAfter: 200, done: false });
  expect(journalWindowEnd(facts({ excess: 50, take: 10, reachesEnd: true }))).toEqual({ journalAfter: 200, done: true });
});

test('within the cap, done before the end unless an aged entry lies ahead', () => {
  expect(journalWindowEnd(facts({ excess: 3, take: 3, capped: 3, lastCapped: 120 }))).toEqual({ journalAfter: 200, done: true });
  expect(journalWindowEnd(facts({ agedBeyond: true }))).toEqual({ journalAfter: 200, done: false });
});

test('for any batch that is not done, the next one starts above where this one did (a run ends after one pass)', () => {
  const batch = fc
    .record({
      after: fc.nat(1000),
      width: fc.nat(50),
      reachesEnd: fc.boolean(),
      excess: fc.nat(100),
      room: fc.nat(60),
      // Often all of `take` (a cap stopped at its room), else a part of it.
      cappedShare: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      agedBeyond: fc.boolean(),
    })
    // A window is empty only at the end of the journal; the cap deletes within it, at most `take`.
    .filter(({ width, reachesEnd }) => width > 0 || reachesEnd)
    .map(({ after, width, reachesEnd, excess, room, cappedShare, agedBeyond }): JournalWindowFacts => {
      const take = Math.min(room, excess, width);
      const capped = Math.floor(take * cappedShare);
      return { after, lastExamined: after + width, reachesEnd, excess, take, capped, lastCapped: after + capped, agedBeyond };
    });
  fc.assert(
    fc.property(batch, (window) => {
      const end = journalWindowEnd(window);
      if (!end.done) expect(end.journalAfter).toBeGreaterThan(window.after);
      expect(end.journalAfter).toBeLessThanOrEqual(window.lastExamined);
    }),
  );
});
