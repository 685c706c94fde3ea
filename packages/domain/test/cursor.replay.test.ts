// The decision is the events: over random command histories of one pair, replaying the events
// decide emitted from the initial cursor gives the live run's cursor after every command and
// the very notices the live run offered, each named by one event.
import { describe, expect } from '@jest/globals';
import { fc, test } from '@fast-check/jest';

import {
  decide,
  evolve,
  fromWatermarks,
  initialCursor,
  isCursorEvent,
  toWatermarks,
  type CursorCommand,
  type CursorNotice,
  type CursorState,
  type DecidedEvent,
  type Watermarks,
} from '../src/cursor/cursor.js';
import { EVENT_KINDS } from '../src/input/eventKind.js';
import { asSequence } from '../src/log/sequence.js';

const WATCHER = 'agent:w:main';
const OTHER = 'agent:o:main';

/** A command before the run gives it sequences: `gap` advances the target's log, `pick` chooses among the run's values. */
type Step =
  | { readonly type: 'watch'; readonly via: 'spawn' | 'watch'; readonly gap: number }
  | { readonly type: 'observe'; readonly kind: (typeof EVENT_KINDS)[number]; readonly actor: 'watcher' | 'other' | 'none'; readonly gap: number }
  | { readonly type: 'drain'; readonly current: boolean; readonly pick: number }
  | { readonly type: 'read'; readonly since: number; readonly through: number }
  | { readonly type: 'restartScan' | 'reread' }
  | { readonly type: 'prune'; readonly before: number; readonly after: number }
  | { readonly type: 'end'; readonly reason: 'reset' | 'deleted' | 'expired' | 'replaced' | 'unwatched' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ type: fc.constant('watch' as const), via: fc.constantFrom('spawn' as const, 'watch' as const), gap: fc.integer({ min: 0, max: 2 }) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('observe' as const),
      kind: fc.oneof(fc.constantFrom('human_direct_message' as const, 'goal_changed' as const), fc.constantFrom(...EVENT_KINDS)),
      actor: fc.constantFrom('watcher' as const, 'other' as const, 'none' as const),
      gap: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('drain' as const), current: fc.boolean(), pick: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('read' as const), since: fc.nat(30), through: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('restartScan' as const, 'reread' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('prune' as const), before: fc.nat(30), after: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('end' as const), reason: fc.constantFrom('reset' as const, 'deleted' as const, 'expired' as const, 'replaced' as const, 'unwatched' as const) }) },
);

/** The command a step is, given the log's head so far and the live cursor. */
function commandOf(step: Step, head: number, state: CursorState): CursorCommand {
  const s = asSequence;
  switch (step.type) {
    case 'watch':
      return { type: 'watch', at: s(head), via: step.via };
    case 'observe': {
      const actorSessionKey = step.actor === 'watcher' ? WATCHER : step.actor === 'other' ? OTHER : undefined;
      return { type: 'observe', watcher: WATCHER, sequence: s(head), kind: step.kind, ...(actorSessionKey !== undefined ? { actorSessionKey } : {}) };
    }
    case 'drain':
      return { type: 'drain', notified: s(step.current && state?.status === 'pending' ? state.notified : step.pick) };
    case 'read':
      return { type: 'read', since: s(Math.min(step.since, head)), through: s(Math.min(step.through, head)) };
    case 'prune':
      return { type: 'prune', before: s(Math.min(step.before, step.after)), after: s(Math.max(step.before, step.after)) };
    default:
      return step;
  }
}

/** The notice an event names, by the rule the decider must keep: the event carries its watermarks. */
function namedBy(event: DecidedEvent): CursorNotice | undefined {
  switch (event.type) {
    case 'notice_raised':
      return { acked: event.acked, notified: event.notified, reason: 'first' };
    case 'notice_reopened':
      return { acked: event.acked, notified: event.notified, reason: 'reopen' };
    case 'notice_read':
      return event.notified > event.acked ? { acked: event.acked, notified: event.notified, reason: 'reopen' } : undefined;
    case 'notice_recovered':
      return { acked: event.acked, notified: event.notified, reason: 'recovered' };
    case 'notice_held':
      return { acked: event.acked, notified: event.notified, reason: event.reason };
    default:
      return undefined;
  }
}

interface Run {
  /** The stored row after each command, as a store keeps it. */
  readonly rows: readonly (Watermarks | undefined)[];
  readonly events: readonly (readonly DecidedEvent[])[];
  readonly notices: readonly (CursorNotice | undefined)[];
}

/** The live run: each command decided on the cursor read back from the stored row, as the planners do. */
function live(steps: readonly Step[]): Run {
  let row: Watermarks | undefined;
  let head = 0;
  const run = { rows: [] as (Watermarks | undefined)[], events: [] as (readonly DecidedEvent[])[], notices: [] as (CursorNotice | undefined)[] };
  for (const step of steps) {
    if (step.type === 'watch' || step.type === 'observe') head += step.gap;
    const state = row === undefined ? undefined : fromWatermarks(row);
    const decision = decide(commandOf(step, head, state), state);
    const after = decision.events.reduce(evolve, state);
    row = after === undefined ? undefined : toWatermarks(after);
    run.rows.push(row);
    run.events.push(decision.events);
    run.notices.push(decision.notice);
  }
  return run;
}

const watermarks = (state: CursorState): Watermarks | undefined => (state === undefined ? undefined : toWatermarks(state));

describe('the decision is the events', () => {
  test.prop([fc.array(stepArb, { maxLength: 80 })], { numRuns: 300 })(
    'replaying the events decide emitted from the initial cursor yields the same cursor state and the same notices as the live run',
    (steps) => {
      const run = live(steps);
      let state = initialCursor;
      const replayed: (CursorNotice | undefined)[] = [];
      run.events.forEach((events, i) => {
        const named = events.map(namedBy).filter((notice) => notice !== undefined);
        expect(named.length).toBeLessThanOrEqual(1);
        replayed.push(named[0]);
        state = events.reduce(evolve, state);
        expect(watermarks(state)).toStrictEqual(run.rows[i]);
      });
      expect(replayed).toStrictEqual(run.notices);
    },
  );

  test.prop([fc.array(stepArb, { maxLength: 80 })], { numRuns: 200 })(
    'the journal and the target log alone rebuild the cursor: a held notice moves nothing',
    (steps) => {
      const run = live(steps);
      const kept = run.events.flat().filter((event) => isCursorEvent(event) || event.type === 'target_event');
      expect(watermarks(kept.reduce(evolve, initialCursor))).toStrictEqual(run.rows[run.rows.length - 1]);
    },
  );
});
