// How a windowed journal-retention batch ends: every batch that is not done resumes above where
// it started (so a run ends after one pass), a cap stopped at its room resumes after its last
// delete, and a journal within its cap with nothing aged ahead is done before its end; and a pair
// always keeps the end of its history.
import fc from 'fast-check';

import { journalWindowEnd, planJournalPrune, type JournalRetentionEntry, type JournalWindowFacts } from '../src/cursor/journalWindow.js';
import { isSessionKey, type SessionKey } from '../src/input/sessionKey.js';

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

test('a pair keeps the end of its history: for any journal, growing between batches, no batch removes an entry while an older entry of its pair stays, and a live pair keeps its latest', () => {
  const key = (raw: string): SessionKey => {
    if (!isSessionKey(raw)) throw new Error(`not a session key: ${raw}`);
    return raw;
  };
  const pairs = ['agent:a:main', 'agent:b:main', 'agent:c:main'].map((watcher) => ({ watcher: key(watcher), target: key('agent:t:main') }));
  const entryArb = fc.record({ pair: fc.nat(pairs.length - 1), recordedAt: fc.nat(10) });
  fc.assert(
    fc.property(
      fc.array(fc.array(entryArb, { maxLength: 6 }), { minLength: 1, maxLength: 8 }),
      fc.subarray([0, 1, 2]),
      fc.record({ cutoff: fc.nat(11), maxRows: fc.nat(12), batchSize: fc.integer({ min: 1, max: 5 }) }),
      (growth, live, limits) => {
        let journal: JournalRetentionEntry[] = [];
        const history = new Map<number, number[]>();
        let after = 0;
        let lastPosition = 0;
        // Entries arrive before each batch; the run hands on its journalAfter until a batch is done.
        for (const arriving of growth) {
          for (const { pair, recordedAt } of arriving) {
            const position = ++lastPosition;
            journal.push({ position, ...(pairs[pair] as (typeof pairs)[number]), recordedAt });
            history.set(pair, [...(history.get(pair) ?? []), position]);
          }
          const plan = planJournalPrune({ entries: journal, isLive: (watcher) => live.some((pair) => pairs[pair]?.watcher === watcher), ...limits, after });
          const removed = new Set(plan.positions);
          journal = journal.filter((entry) => !removed.has(entry.position));
          for (const [pair, positions] of history) {
            const kept = journal.filter((entry) => entry.watcher === pairs[pair]?.watcher).map((entry) => entry.position);
            expect(kept).toEqual(positions.slice(positions.length - kept.length));
            if (live.includes(pair)) expect(kept.length).toBeGreaterThan(0);
          }
          after = plan.done ? 0 : plan.journalAfter;
        }
      },
    ),
  );
});
