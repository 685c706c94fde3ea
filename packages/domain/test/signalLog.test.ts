// The signal-log head: the state version never decreases, and `historyGap` is exact for
// sparse (non-contiguous) sequences; example tests plus properties.
import { describe, expect, test } from '@jest/globals';
import { fc, test as prop } from '@fast-check/jest';

import { asSequence, type Sequence } from '../src/log/sequence.js';
import { evolveHead, historyGap, initialHead, type SignalLogEvent, type SignalLogHead } from '../src/log/signalLog.js';
import { buildStateChanges } from '../src/log/stateChanges.js';
import type { SessionEvent } from '../src/log/event.js';

const seq = (n: number): Sequence => asSequence(n);
const replay = (events: readonly SignalLogEvent[]): SignalLogHead => events.reduce(evolveHead, initialHead);

const sequenceArb = fc.integer({ min: 1, max: 1_000_000 }).map(seq);

const signalLogEventArb: fc.Arbitrary<SignalLogEvent> = fc.oneof(
  sequenceArb.map((sequence): SignalLogEvent => ({ type: 'appended', sequence })),
  sequenceArb.map((highestDeleted): SignalLogEvent => ({ type: 'pruned', highestDeleted })),
  sequenceArb.map((highestDeleted): SignalLogEvent => ({ type: 'deleted', highestDeleted })),
);

/**
 * A session's sparse history (strictly increasing, gaps between sequences, as with one global
 * counter) and the retention operations run on it: each operation removes some retained
 * events – the oldest `count` for a prune, all for a delete – and reports the highest removed.
 */
const historyArb = fc
  .record({
    sequences: fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 0, maxLength: 40 }),
    operations: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('pruned' as const), count: fc.integer({ min: 0, max: 10 }) }),
        fc.record({ type: fc.constant('deleted' as const), count: fc.constant(Number.POSITIVE_INFINITY) }),
      ),
      { maxLength: 4 },
    ),
    changesSince: fc.integer({ min: 0, max: 10_001 }),
  })
  .map(({ sequences, operations, changesSince }) => ({
    sequences: [...sequences].sort((a, b) => a - b),
    operations,
    changesSince,
  }));

describe('evolveHead', () => {
  test('a session with no events has version 0 and no prune watermark', () => {
    expect(initialHead).toStrictEqual({ head: 0, pruneWatermark: 0 });
  });

  test('appends raise the head; prunes and deletes raise only the watermark', () => {
    const state = replay([
      { type: 'appended', sequence: seq(3) },
      { type: 'appended', sequence: seq(9) },
      { type: 'pruned', highestDeleted: seq(3) },
    ]);
    expect(state).toStrictEqual({ head: 9, pruneWatermark: 3 });
    expect(evolveHead(state, { type: 'deleted', highestDeleted: seq(9) })).toStrictEqual({ head: 9, pruneWatermark: 9 });
  });

  test('a recreated session continues above its old version (the head is a tombstone)', () => {
    const deleted = replay([
      { type: 'appended', sequence: seq(17) },
      { type: 'deleted', highestDeleted: seq(17) },
    ]);
    expect(deleted.head).toBe(17);
    expect(evolveHead(deleted, { type: 'appended', sequence: seq(18) })).toStrictEqual({ head: 18, pruneWatermark: 17 });
  });

  prop.prop([fc.array(signalLogEventArb, { maxLength: 60 })])(
    'the head never decreases under any sequence of appended, pruned and deleted',
    (events) => {
      let state = initialHead;
      for (const event of events) {
        const next = evolveHead(state, event);
        expect(next.head).toBeGreaterThanOrEqual(state.head);
        state = next;
      }
      const appended = events.flatMap((e) => (e.type === 'appended' ? [e.sequence] : []));
      expect(state.head).toBe(Math.max(0, ...appended));
    },
  );

  prop.prop([fc.array(signalLogEventArb, { maxLength: 60 })])(
    'the prune watermark never decreases and is the highest sequence ever pruned or deleted',
    (events) => {
      let state = initialHead;
      for (const event of events) {
        const next = evolveHead(state, event);
        expect(next.pruneWatermark).toBeGreaterThanOrEqual(state.pruneWatermark);
        state = next;
      }
      const removed = events.flatMap((e) => (e.type === 'appended' ? [] : [e.highestDeleted]));
      expect(state.pruneWatermark).toBe(Math.max(0, ...removed));
    },
  );
});

describe('historyGap', () => {
  const sparse = replay([
    { type: 'appended', sequence: seq(3) },
    { type: 'appended', sequence: seq(7) },
    { type: 'appended', sequence: seq(20) },
    { type: 'pruned', highestDeleted: seq(7) },
  ]);

  test('asked at the prune watermark: no gap', () => {
    expect(historyGap(sparse, seq(7))).toBe(false);
  });

  test('asked one below the prune watermark: gap', () => {
    expect(historyGap(sparse, seq(6))).toBe(true);
  });

  test('asked between sparse sequences above the watermark: no gap, whatever the arithmetic', () => {
    expect(historyGap(sparse, seq(10))).toBe(false);
  });

  test('asked from 0 after a prune: gap; with nothing pruned: no gap', () => {
    expect(historyGap(sparse, seq(0))).toBe(true);
    expect(historyGap(replay([{ type: 'appended', sequence: seq(5) }]), seq(0))).toBe(false);
  });

  test('asked above the state version: no gap', () => {
    expect(historyGap(sparse, seq(99))).toBe(false);
  });

  prop.prop([fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(seq)])(
    'boundary: asked = watermark gives no gap, asked = watermark - 1 gives a gap',
    (watermark) => {
      const state = evolveHead(initialHead, { type: 'pruned', highestDeleted: watermark });
      expect(historyGap(state, watermark)).toBe(false);
      expect(historyGap(state, seq(watermark - 1))).toBe(true);
    },
  );

  prop.prop([historyArb])(
    'historyGap is true exactly when an event after changesSince was pruned or deleted (sparse sequences)',
    ({ sequences, operations, changesSince }) => {
      const events: SignalLogEvent[] = sequences.map((sequence) => ({ type: 'appended', sequence: seq(sequence) }));
      let retained = [...sequences];
      const removed: number[] = [];
      for (const op of operations) {
        const gone = retained.slice(0, op.count);
        retained = retained.slice(gone.length);
        removed.push(...gone);
        const highest = gone[gone.length - 1];
        if (highest !== undefined) events.push({ type: op.type, highestDeleted: seq(highest) });
      }
      const state = replay(events);
      // The reference knows every removed sequence; the head only keeps the watermark.
      const missedSomething = removed.some((sequence) => sequence > changesSince);
      expect(historyGap(state, seq(changesSince))).toBe(missedSomething);
      expect(historyGap(state, seq(changesSince))).toBe(changesSince < state.pruneWatermark);
    },
  );
});

describe('buildStateChanges', () => {
  const event = (sequence: number): SessionEvent => ({
    sequence,
    kind: 'goal_changed',
    actorType: 'agent',
    summary: 'goal updated',
    occurredAt: '2026-11-29T10:00:00.000Z',
  });
  const head = replay([
    { type: 'appended', sequence: seq(14) },
    { type: 'pruned', highestDeleted: seq(4) },
  ]);

  test('nextSince is the last returned sequence; earliestRetained is the page\'s, whatever changesSince', () => {
    expect(buildStateChanges({ head, events: [event(9), event(14)], hasMore: false, earliestRetained: seq(7) }, seq(5))).toStrictEqual({
      events: [event(9), event(14)],
      historyGap: false,
      earliestRetained: 7,
      hasMore: false,
      nextSince: 14,
    });
  });

  test('nextSince is changesSince itself when no event is returned; the gap is still reported', () => {
    expect(buildStateChanges({ head, events: [], hasMore: false, earliestRetained: seq(0) }, seq(2))).toStrictEqual({ events: [], historyGap: true, earliestRetained: 0, hasMore: false, nextSince: 2 });
  });
});
