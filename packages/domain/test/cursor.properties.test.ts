// The cursor machine's laws under random events, drains, seeds, restart scans and rereads, through a simulated queue.
import { describe, expect } from '@jest/globals';
import { fc, test } from '@fast-check/jest';

import { NOTICE_RULES, type RuleStep } from '@session-state/testkit';

import { toWatermarks, type Cursor } from '../src/cursor/cursor.js';
import { noticeText } from '../src/notice.js';
import {
  NoticeSimulation,
  PAIRS,
  WATCHERS,
  TARGETS,
  pairId,
  runSimulation,
  simCommandsArb,
  type Pair,
  type QueueEntry,
  type SimCommand,
  type Snapshot,
  type Transition,
} from './support/noticeSimulation.js';
import { heldNoticeOf, stepOf, type CursorResult, type CursorTestInput } from './support/cursorSpec.js';

const entriesOf = (snapshot: Snapshot, pair: Pair): readonly QueueEntry[] =>
  snapshot.queue.filter((e) => e.watcher === pair.watcher && e.target === pair.target);

const cursorIn = (snapshot: Snapshot, pair: Pair): Cursor | undefined => snapshot.cursors.get(pairId(pair));

/** True when the command itself consumes or replaces the pair's notice (its drain or its seed). */
function consumesNoticeOf(transition: Transition, pair: Pair): boolean {
  const { command } = transition;
  if (command.type === 'drain') return WATCHERS[command.watcher] === pair.watcher;
  if (command.type === 'seed') return WATCHERS[command.watcher] === pair.watcher && TARGETS[command.target] === pair.target;
  return false;
}

/** What the kit's table of SPEC 5 says one input does to the pair's cursor. */
function tableStep(watcher: string, before: Cursor | undefined, input: CursorTestInput): RuleStep {
  const cursor = before === undefined ? undefined : toWatermarks(before);
  switch (input.type) {
    case 'event':
      return NOTICE_RULES.change(cursor, watcher, input);
    case 'drain':
      return NOTICE_RULES.drain(cursor, input.notified);
    case 'seed':
      return NOTICE_RULES.spawn(cursor, input.at);
    case 'restartScan':
      return NOTICE_RULES.restartScan(cursor);
    case 'end':
      return NOTICE_RULES.end();
    case 'read':
      return NOTICE_RULES.read(cursor, input.since, input.through);
    default:
      throw new Error(`the table has no row for ${JSON.stringify(input)}`);
  }
}

/** A step in the table's terms: plain watermarks, the notice asked for, the drain result. */
interface StepView {
  readonly cursor: RuleStep['cursor'];
  readonly notice?: { readonly acked: number; readonly notified: number; readonly reason: string };
  readonly drain?: string;
}

/** A decider step in the table's terms. */
function asTableStep(step: CursorResult | undefined): StepView {
  const cursor = step?.cursor === undefined ? undefined : { ...toWatermarks(step.cursor) };
  const notice = step?.notice === undefined ? undefined : { acked: step.notice.acked, notified: step.notice.notified, reason: step.notice.reason };
  return { cursor, ...(notice !== undefined ? { notice } : {}), ...(step?.drain !== undefined ? { drain: step.drain } : {}) };
}

describe('the cursor decider against the test kit\'s table of SPEC 5', () => {
  test.prop([simCommandsArb])('every step of every pair moves the watermarks and asks for the notice exactly as the table says', (commands) => {
    runSimulation(commands, ({ steps }) => {
      for (const record of steps) {
        const table = tableStep(record.pair.watcher, record.before, record.input);
        const expected: StepView = { cursor: table.cursor === undefined ? undefined : { ...table.cursor }, ...(table.notice !== undefined ? { notice: table.notice } : {}), ...(table.drain !== undefined ? { drain: table.drain } : {}) };
        expect({ pair: record.pair, input: record.input, step: asTableStep(record.step) }).toStrictEqual({ pair: record.pair, input: record.input, step: expected });
      }
    });
  });
});

describe('cursor + notice queue under random interleavings', () => {
  test.prop([simCommandsArb])('at most one pending notice per (watcher, target) pair', (commands) => {
    runSimulation(commands, ({ after, offers }) => {
      for (const pair of PAIRS) expect(entriesOf(after, pair).length).toBeLessThanOrEqual(1);
      // The queue keeps one entry per pair by replacing; the decider must never ask it to.
      expect(offers.filter((offer) => offer.outcome === 'replaced')).toStrictEqual([]);
    });
  });

  test.prop([simCommandsArb])(
    'a notice is queued exactly while its cursor is pending, and carries the cursor\'s acked and notified',
    (commands) => {
      runSimulation(commands, ({ after }) => {
        for (const pair of PAIRS) {
          const cursor = cursorIn(after, pair);
          const entries = entriesOf(after, pair);
          if (cursor?.status === 'pending') {
            expect(entries).toHaveLength(1);
            expect(entries[0]?.acked).toBe(cursor.acked);
            expect(entries[0]?.notified).toBe(cursor.notified);
            expect(entries[0]?.text).toBe(noticeText(pair.target, cursor.acked));
          } else {
            expect(entries).toHaveLength(0);
          }
        }
      });
    },
  );

  test.prop([simCommandsArb])('the text of a pending notice never changes while it is pending', (commands) => {
    runSimulation(commands, (transition) => {
      const { before, after, offers } = transition;
      for (const pair of PAIRS) {
        if (cursorIn(before, pair)?.status !== 'pending' || consumesNoticeOf(transition, pair)) continue;
        const [pendingBefore] = entriesOf(before, pair);
        expect(pendingBefore).toBeDefined();
        const text = pendingBefore?.text;
        expect(cursorIn(after, pair)?.status).toBe('pending');
        expect(entriesOf(after, pair).map((e) => e.text)).toStrictEqual([text]);
        for (const offer of offers.filter((o) => o.entry.watcher === pair.watcher && o.entry.target === pair.target)) {
          expect(offer.entry.text).toBe(text);
        }
      }
    });
  });

  test.prop([simCommandsArb])('acked <= notified <= material always, and acked never decreases', (commands) => {
    runSimulation(commands, ({ before, after }) => {
      for (const pair of PAIRS) {
        const now = cursorIn(after, pair);
        expect(now).toBeDefined();
        if (now === undefined) continue;
        const w = toWatermarks(now);
        expect(w.acked).toBeLessThanOrEqual(w.notified);
        expect(w.notified).toBeLessThanOrEqual(w.material);
        if (now.status === 'pending') expect(now.acked).toBeLessThan(now.notified);
        const was = cursorIn(before, pair);
        if (was !== undefined) expect(w.acked).toBeGreaterThanOrEqual(was.acked);
      }
    });
  });

  test.prop([simCommandsArb])('self-caused events never produce a notice', (commands) => {
    runSimulation(commands, ({ command, actorSessionKey, steps, offers, before, after }) => {
      if (command.type !== 'event' || actorSessionKey === undefined) return;
      for (const record of steps.filter((s) => s.pair.watcher === actorSessionKey)) {
        expect(record.step?.notice).toBeUndefined();
        expect(record.step?.changed).toBe(false);
        expect(record.step?.cursor).toStrictEqual(record.before);
        expect(entriesOf(after, record.pair)).toStrictEqual(entriesOf(before, record.pair));
      }
      expect(offers.filter((o) => o.entry.watcher === actorSessionKey)).toStrictEqual([]);
    });
  });

  test.prop([simCommandsArb])(
    'after a final drain every foreign notifying event is at or below acked or covered by the one reopened notice',
    (commands) => {
      const sim = runSimulation(commands);
      sim.drainAll();
      const after = sim.snapshot();
      for (const pair of PAIRS) {
        const cursor = cursorIn(after, pair);
        const foreign = sim.foreignSinceSeed.get(pairId(pair)) ?? [];
        expect(cursor).toBeDefined();
        if (cursor === undefined) continue;
        const entries = entriesOf(after, pair);
        if (cursor.status === 'idle') {
          expect(entries).toHaveLength(0);
          for (const sequence of foreign) expect(sequence).toBeLessThanOrEqual(cursor.acked);
        } else {
          expect(entries).toHaveLength(1);
          expect(entries[0]?.reason).toBe('reopen');
          expect(entries[0]?.notified).toBe(cursor.notified);
          for (const sequence of foreign) expect(sequence).toBeLessThanOrEqual(entries[0]?.notified ?? -1);
          // A reopen covers something new: at least one foreign event lies above the new acked.
          expect(foreign.some((sequence) => sequence > cursor.acked)).toBe(true);
        }
      }
    },
  );

  test.prop([simCommandsArb])(
    'a restart scan never lowers a watermark and re-queues exactly the pairs with material > acked',
    (commands) => {
      const sim = runSimulation(commands);
      const before = sim.snapshot();
      const { after } = sim.apply({ type: 'restart' });
      for (const pair of PAIRS) {
        const was = cursorIn(before, pair);
        const now = cursorIn(after, pair);
        expect(was && now).toBeDefined();
        if (was === undefined || now === undefined) continue;
        const [w0, w1] = [toWatermarks(was), toWatermarks(now)];
        expect(w1.acked).toBe(w0.acked);
        expect(w1.material).toBe(w0.material);
        expect(w1.notified).toBeGreaterThanOrEqual(w0.notified);
        const pendingBefore = w0.material > w0.acked;
        expect(entriesOf(after, pair)).toHaveLength(pendingBefore ? 1 : 0);
        if (pendingBefore) expect(w1.notified).toBe(w1.material);
      }
    },
  );

  test.prop([simCommandsArb, fc.boolean()])(
    'the restart scan is idempotent: a second scan changes nothing and offers only texts already queued',
    (commands, drainFirst) => {
      const sim = runSimulation(commands);
      if (drainFirst) sim.drainAll();
      sim.apply({ type: 'restart' });
      const second = sim.scanAgain();
      for (const record of second.steps) {
        expect(record.step?.changed).toBe(false);
        expect(record.step?.cursor).toStrictEqual(record.before);
      }
      for (const offer of second.offers) {
        expect(offer.queued).toBe(false);
        expect(second.before.queue.map((e) => e.text)).toContain(offer.entry.text);
      }
      expect(second.after).toStrictEqual(second.before);
    },
  );

  test.prop([simCommandsArb])(
    "the held notice never changes what a drain acknowledges: the notice it returns has the cursor's own notified",
    (commands) => {
      runSimulation(commands, ({ after }) => {
        for (const pair of PAIRS) {
          const cursor = cursorIn(after, pair);
          if (cursor === undefined) continue;
          const held = heldNoticeOf(pair.watcher, pair.target, cursor);
          if (cursor.status === 'idle') {
            expect(held).toBeUndefined();
            continue;
          }
          expect(held).toStrictEqual({
            watcher: pair.watcher,
            target: pair.target,
            acked: cursor.acked,
            notified: cursor.notified,
            text: noticeText(pair.target, cursor.acked),
            reason: 'signalled',
          });
          // Drained at the held watermark, the cursor steps exactly as drained at its own.
          expect(stepOf(pair.watcher, cursor, { type: 'drain', notified: held?.notified ?? cursor.notified })).toStrictEqual(
            stepOf(pair.watcher, cursor, { type: 'drain', notified: cursor.notified }),
          );
        }
      });
    },
  );

  // The reader's read, on any cursor a run of the simulation leaves, with any read range.
  test.prop([simCommandsArb, fc.nat({ max: 40 }), fc.nat({ max: 40 })])(
    'a read steps every cursor exactly as the table says, never lowers acked, and never leaves a foreign change above material uncovered',
    (commands, since, through) => {
      const sim = runSimulation(commands);
      const snapshot = sim.snapshot();
      for (const pair of PAIRS) {
        const before = cursorIn(snapshot, pair);
        const input: CursorTestInput = { type: 'read', since: since as never, through: through as never };
        const decided = stepOf(pair.watcher, before, input);
        expect(asTableStep(decided)).toStrictEqual(tableStep(pair.watcher, before, input));
        // A read that acknowledged nothing changes nothing.
        if (decided.events.length === 0) expect(decided.cursor).toStrictEqual(before);
        if (before === undefined || decided.cursor === undefined || decided.events.length === 0) continue;
        const [w0, w1] = [toWatermarks(before), toWatermarks(decided.cursor)];
        expect(w1.acked).toBeGreaterThanOrEqual(w0.acked);
        // No foreign change is dropped: material never falls (an idle cursor's rises with acked).
        expect(w1.material).toBe(Math.max(w0.material, w1.acked));
        // Everything above the new acked is either nothing (idle) or covered by the one notice it asks for.
        if (w1.material > w1.acked) expect(decided.notice?.notified).toBe(w1.material);
        else expect(decided.notice).toBeUndefined();
      }
    },
  );

  test.prop([simCommandsArb])(
    'a signal scan between any two commands changes no cursor, no queued notice and no drain: it only coalesces',
    (commands) => {
      const scanned = new NoticeSimulation();
      const plain = new NoticeSimulation();
      const scan: SimCommand = { type: 'signalScan' };
      for (const command of commands.filter((c) => c.type !== 'signalScan')) {
        scanned.apply(command);
        plain.apply(command);
        const { offers } = scanned.apply(scan);
        for (const offer of offers) expect(offer.queued).toBe(false);
        expect(scanned.snapshot()).toStrictEqual(plain.snapshot());
      }
      const [withScans, without] = [scanned.drainAll(), plain.drainAll()];
      expect(withScans.map((t) => t.steps)).toStrictEqual(without.map((t) => t.steps));
      expect(scanned.snapshot()).toStrictEqual(plain.snapshot());
    },
  );
});
