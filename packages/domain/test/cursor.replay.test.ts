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
  lease,
  toWatermarks,
  watchClass,
  type CursorCommand,
  type CursorNotice,
  type CursorState,
  type DecidedEvent,
  type Watermarks,
} from '../src/cursor/cursor.js';
import { planDrain, planPruneMaterial, planAcknowledgeRead, planRemoval, planScan, planWatch } from '../src/cursor/plans.js';
import { replayCursor, type ReplayedTargetEvent } from '../src/cursor/replay.js';
import type { CursorJournalRecord } from '../src/cursor/journal.js';
import { EVENT_KINDS } from '../src/input/eventKind.js';
import type { AppendCommand } from '../src/input/recordInput.js';
import type { SessionKey } from '../src/input/sessionKey.js';
import { planAppend, type CursorRow } from '../src/log/append.js';
import { asSequence } from '../src/log/sequence.js';
import type { Notice } from '../src/notice.js';

const WATCHER = 'agent:w:main' as SessionKey;
const OTHER = 'agent:o:main';
const TARGET = 'agent:t:main' as SessionKey;

/** A command before the run gives it sequences: `gap` advances the target's log, `pick` chooses among the run's values. */
type Step =
  | { readonly type: 'watch'; readonly via: 'spawn' | 'watch' | 'ambient'; readonly gap: number }
  | { readonly type: 'observe'; readonly kind: (typeof EVENT_KINDS)[number]; readonly actor: 'watcher' | 'other' | 'none'; readonly gap: number }
  | { readonly type: 'drain'; readonly current: boolean; readonly pick: number }
  | { readonly type: 'take'; readonly current: boolean; readonly pick: number; readonly at: number; readonly lease: number }
  | { readonly type: 'read'; readonly since: number; readonly through: number }
  | { readonly type: 'restartScan' | 'reread' }
  | { readonly type: 'prune'; readonly before: number; readonly after: number }
  | { readonly type: 'end'; readonly reason: 'reset' | 'deleted' | 'expired' | 'replaced' | 'unwatched' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ type: fc.constant('watch' as const), via: fc.constantFrom('spawn' as const, 'watch' as const, 'ambient' as const), gap: fc.integer({ min: 0, max: 2 }) }) },
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
  // A take at clock time `at` (0-9), leased for 1-4: later takes meet running and ended leases alike.
  { weight: 3, arbitrary: fc.record({ type: fc.constant('take' as const), current: fc.boolean(), pick: fc.nat(30), at: fc.nat(9), lease: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('read' as const), since: fc.nat(30), through: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('restartScan' as const, 'reread' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('prune' as const), before: fc.nat(30), after: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('end' as const), reason: fc.constantFrom('reset' as const, 'deleted' as const, 'expired' as const, 'replaced' as const, 'unwatched' as const) }) },
);

/** Histories that start with a watch, so most steps meet a cursor. */
const historyArb: fc.Arbitrary<readonly Step[]> = fc
  .tuple(fc.constantFrom('spawn' as const, 'watch' as const, 'ambient' as const), fc.array(stepArb, { maxLength: 80, size: 'medium' }))
  .map(([via, rest]) => [{ type: 'watch', via, gap: 0 }, ...rest]);

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
    case 'take':
      return { type: 'take', notified: s(step.current && state?.status === 'pending' ? state.notified : step.pick), now: step.at, until: step.at + step.lease };
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
      return { acked: event.acked, notified: event.notified, reason: event.reason, ...lease(event.takenUntil) };
    case 'notice_taken':
      return { acked: event.acked, notified: event.notified, reason: 'taken', takenUntil: event.until };
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
  test.prop([historyArb], { numRuns: 300 })(
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

  test.prop([historyArb], { numRuns: 200 })(
    'the journal and the target log alone rebuild the cursor: a held notice moves nothing',
    (steps) => {
      const run = live(steps);
      const kept = run.events.flat().filter((event) => isCursorEvent(event) || event.type === 'target_event');
      expect(watermarks(kept.reduce(evolve, initialCursor))).toStrictEqual(run.rows[run.rows.length - 1]);
    },
  );
});

/** The same history through the store planners over one stored row: its rows, the notices they return, the journal and the target's log. */
function viaPlanners(steps: readonly Step[]) {
  let row: CursorRow | undefined;
  let head = 0;
  const rows: (Watermarks | undefined)[] = [];
  const notices: (CursorNotice | undefined)[] = [];
  const journal: CursorJournalRecord[] = [];
  const log: ReplayedTargetEvent[] = [];
  const now = 1;
  for (const step of steps) {
    if (step.type === 'watch' || step.type === 'observe') head += step.gap;
    const command = commandOf(step, head, row === undefined ? undefined : fromWatermarks(row));
    const cursors = row === undefined ? [] : [row];
    let written: readonly CursorRow[] = [];
    let offered: readonly Notice[] = [];
    if (command.type === 'watch' && command.via !== 'spawn') {
      const plan = planWatch({ request: { watcher: WATCHER, target: TARGET, now, ambient: command.via === 'ambient' }, existing: row, head: command.at });
      [written] = [plan.cursorWrites];
      journal.push(...plan.journal);
    } else if (command.type === 'watch' || command.type === 'observe') {
      const seed = command.type === 'watch';
      const kind = command.type === 'observe' ? command.kind : 'child_spawned';
      const actorSessionKey = command.type === 'observe' ? command.actorSessionKey : undefined;
      const appended = { sessionKey: TARGET, kind, actorType: 'agent', summary: 's', onlyIfWatched: false, ...(actorSessionKey !== undefined ? { actorSessionKey } : {}) } as AppendCommand;
      const sequence = asSequence(head);
      // A spawn edge appends at `at`; an observed event is one the log already numbers.
      const plan = planAppend({ command: appended, sequence, appendedAt: now, cursorsOnTarget: cursors, ...(seed ? { seedWatcher: WATCHER } : {}) });
      if (log.every((event) => event.sequence !== sequence)) log.push({ sequence, kind, ...(actorSessionKey !== undefined ? { actorSessionKey: actorSessionKey as SessionKey } : {}) });
      [written, offered] = [plan.cursorWrites, plan.notices];
      journal.push(...plan.journal);
    } else if (command.type === 'drain' || command.type === 'take') {
      const lease = command.type === 'take' ? { now: command.now, takenUntil: command.until } : { now };
      const plan = planDrain({ watcher: WATCHER, acks: [{ target: TARGET, notified: command.notified }], cursors, ...lease });
      const [outcome] = plan.outcomes;
      const notice = outcome?.result === 'acked' ? outcome.reopened : outcome?.result === 'stale' ? outcome.pending : outcome?.notice;
      [written, offered] = [plan.cursorWrites, notice === undefined ? [] : [notice]];
      journal.push(...plan.journal);
    } else if (command.type === 'read') {
      const plan = planAcknowledgeRead({ request: { watcher: WATCHER, target: TARGET, since: command.since, through: command.through, now }, existing: row });
      const notice = plan.outcome.acknowledged ? plan.outcome.reopened : undefined;
      [written, offered] = [plan.cursorWrites, notice === undefined ? [] : [notice]];
      journal.push(...plan.journal);
    } else if (command.type === 'restartScan') {
      const plan = planScan({ cursors, raise: { now } });
      [written, offered] = [plan.cursorWrites, plan.notices];
      journal.push(...plan.journal);
    } else if (command.type === 'reread') {
      offered = planScan({ cursors }).notices;
    } else if (command.type === 'prune') {
      journal.push(...planPruneMaterial({ pruned: [{ sessionKey: TARGET, before: command.before, after: command.after }], cursors, now }).journal);
    } else {
      const plan = planRemoval({ cursors, reason: command.reason, now });
      journal.push(...plan.journal);
      if (plan.removed.length > 0) row = undefined;
    }
    const [write] = written;
    if (write !== undefined) row = write;
    rows.push(row === undefined ? undefined : { acked: row.acked, notified: row.notified, material: row.material, ...lease(row.takenUntil), ...watchClass(row.ambient) });
    const [notice] = offered;
    notices.push(notice === undefined ? undefined : { acked: notice.acked, notified: notice.notified, reason: notice.reason, ...lease(notice.takenUntil), ...watchClass(notice.ambient) });
  }
  return { rows, notices, journal, log };
}

// A promotion names no material: an ambient cursor's repeat raised it, and the replay must not lose that.
const promotedAfterARepeat: readonly Step[] = [
  { type: 'watch', via: 'ambient', gap: 0 },
  { type: 'observe', kind: 'human_direct_message', actor: 'none', gap: 1 },
  { type: 'observe', kind: 'human_direct_message', actor: 'none', gap: 1 },
  { type: 'watch', via: 'watch', gap: 0 },
];

describe('the store planners are decide and evolve', () => {
  test.prop([historyArb], { numRuns: 200, examples: [[promotedAfterARepeat]] })(
    "they write the decider's rows (ambient watches and promotions among them) and return its notices, each of its cursor's class, and their journal with the target's log replays to the last row",
    (steps) => {
      const run = live(steps);
      const planned = viaPlanners(steps);
      expect(planned.rows).toStrictEqual(run.rows);
      expect(planned.notices).toStrictEqual(run.notices.map((notice, i) => notice && { ...notice, ...watchClass(run.rows[i - 1]?.ambient) }));
      expect(watermarks(replayCursor(planned.journal, planned.log))).toStrictEqual(run.rows[run.rows.length - 1]);
    },
  );
});
