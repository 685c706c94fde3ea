// Given/When/Then tests for the watcher cursor decider, continued: the restart scan, reads, ends,
// prunes and the held notice; and the events decide emits beside the journalled ones.
import { describe, expect, test } from '@jest/globals';

import { decide, fromWatermarks, toWatermarks, type Cursor } from '../src/cursor/cursor.js';
import { noticeText } from '../src/notice.js';
import {
  TARGET,
  WATCHER,
  cursorSpec,
  drain,
  end,
  ended,
  event,
  foreign,
  heldNoticeOf,
  idle,
  noticeOf,
  noticeRead,
  pending,
  read,
  recovered,
  restartScan,
  seed,
  seq,
  stepOf,
  type CursorResult,
  type CursorTestInput,
} from './support/cursorSpec.js';

const spec = cursorSpec(WATCHER);

/** The notice text a step would queue for the (WATCHER, TARGET) pair. */
const textOf = (step: CursorResult | undefined): string | undefined => noticeOf(WATCHER, TARGET, step)?.text;

/** One step of the (WATCHER, TARGET) cursor. */
const step = (cursor: Cursor | undefined, input: CursorTestInput): CursorResult => stepOf(WATCHER, cursor, input);

describe('restart scan', () => {
  test('a row with material > notified: notified = material, the notice is queued again', () => {
    spec
      .given([seed(5), foreign(8), foreign(11)])
      .when(restartScan)
      .then({
        events: [recovered(5, 11)],
        cursor: pending(5, 11, 11),
        changed: true,
        notice: { acked: seq(5), notified: seq(11), reason: 'recovered' },
      });
  });

  test('a pending row with material = notified: the notice is queued again, nothing written', () => {
    spec
      .given([seed(5), foreign(8)])
      .when(restartScan)
      .then({ events: [], cursor: pending(5, 8, 8), changed: false, notice: { acked: seq(5), notified: seq(8), reason: 'recovered' } });
  });

  test('the recovered text equals the text that was pending before the restart', () => {
    const before = step(idle(5), foreign(8));
    const after = step(pending(5, 8, 11), restartScan);
    expect(textOf(after)).toBe(textOf(before));
  });

  test('a stored row with material > acked but notified not raised scans to notified = material', () => {
    const result = step(fromWatermarks({ acked: seq(5), notified: seq(5), material: seq(9) }), restartScan);
    expect(result.cursor).toStrictEqual(pending(5, 9, 9));
    expect(result.notice).toStrictEqual({ acked: seq(5), notified: seq(9), reason: 'recovered' });
  });

  test('an idle row: nothing', () => {
    spec.given([seed(5), foreign(8), drain(8)]).when(restartScan).then({ events: [], cursor: idle(8), changed: false });
  });

  test('a freshly seeded row: nothing', () => {
    spec.given([seed(5)]).when(restartScan).then({ events: [], cursor: idle(5), changed: false });
  });
});

describe('read (the watcher reconciled with status as reader and reached the head)', () => {
  test('a pending cursor read from acked up to its material goes idle there: notice_read, no notice (the queued one is withdrawn)', () => {
    spec.given([seed(5), foreign(8), foreign(11)]).when(read(5, 11)).then({ events: [noticeRead(11, 11)], cursor: idle(11), changed: true });
  });

  test('a burst read after the drain reopened: the reopened notice is covered, idle at the head', () => {
    spec.given([seed(5), foreign(8), foreign(11), drain(8)]).when(read(5, 11)).then({ events: [noticeRead(11, 11)], cursor: idle(11), changed: true });
  });

  test('a change recorded after the read keeps one notice: acked = the head read, notified = material, reason reopen', () => {
    spec
      .given([seed(5), foreign(8), foreign(11)])
      .when(read(5, 9))
      .then({
        events: [noticeRead(9, 11)],
        cursor: pending(9, 11, 11),
        changed: true,
        notice: { acked: seq(9), notified: seq(11), reason: 'reopen' },
      });
  });

  test('an idle cursor read past acked moves acked to the head read (the next notice starts there)', () => {
    spec.given([seed(5), event(7, 'compacted', TARGET)]).when(read(5, 7)).then({ events: [noticeRead(7, 7)], cursor: idle(7), changed: true });
  });

  test('a read that started above acked, ended at or below it, or of a pair without a cursor acknowledges nothing', () => {
    spec.given([seed(5), foreign(8)]).when(read(6, 8)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
    spec.given([seed(5), foreign(8)]).when(read(0, 5)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
    spec.given([]).when(read(0, 8)).then({ events: [], cursor: undefined, changed: false });
  });

  test('a read from below acked (an older changesSince) covers more and acknowledges too', () => {
    spec.given([seed(5), foreign(8)]).when(read(2, 8)).then({ events: [noticeRead(8, 8)], cursor: idle(8), changed: true });
  });
});

describe('end and prune', () => {
  test.each(['reset', 'deleted', 'expired', 'replaced', 'unwatched'] as const)('end (%s) removes an idle or pending cursor with one watch_ended', (reason) => {
    spec.given([seed(5)]).when(end(reason)).then({ events: [ended(reason)], cursor: undefined, changed: true });
    spec.given([seed(5), foreign(8), foreign(11)]).when(end(reason)).then({ events: [ended(reason)], cursor: undefined, changed: true });
  });

  test('a prune whose watermark passed the material a target event set keeps it: material_kept, nothing written', () => {
    spec
      .given([seed(5), foreign(8), foreign(11)])
      .when({ type: 'prune', before: seq(0), after: seq(11) })
      .then({ events: [{ type: 'material_kept', material: seq(11) }], cursor: pending(5, 8, 11), changed: false });
  });

  test('a prune below the material, or one that passed it before, or of an idle cursor or one whose material is its notified: nothing', () => {
    for (const [given, before, after] of [
      [[seed(5), foreign(8), foreign(11)], 0, 10],
      [[seed(5), foreign(8), foreign(11)], 11, 12],
      [[seed(5), foreign(8)], 0, 20],
      [[seed(5)], 0, 20],
    ] as const) {
      spec.given(given).when({ type: 'prune', before: seq(before), after: seq(after) }).thenCheck((result) => expect(result.events).toStrictEqual([]));
    }
  });
});

/** The cursor of (WATCHER, TARGET) after `inputs`, each decided and folded. */
const cursorAfter = (inputs: readonly CursorTestInput[]): Cursor | undefined =>
  inputs.reduce<Cursor | undefined>((cursor, input) => step(cursor, input).cursor, undefined);

describe('the held notice (the reread command)', () => {
  test('an idle cursor holds no notice: freshly seeded, or drained', () => {
    expect(heldNoticeOf(WATCHER, TARGET, idle(5))).toBeUndefined();
    const drained = cursorAfter([seed(5), foreign(8), drain(8)]);
    expect(drained).toStrictEqual(idle(8));
    expect(drained && heldNoticeOf(WATCHER, TARGET, drained)).toBeUndefined();
  });

  test('a pending cursor holds the notice at its frozen notified, not at material: its acked, its text, reason signalled', () => {
    expect(heldNoticeOf(WATCHER, TARGET, pending(5, 8, 11))).toStrictEqual({
      watcher: WATCHER,
      target: TARGET,
      acked: seq(5),
      notified: seq(8),
      text: noticeText(TARGET, seq(5)),
      reason: 'signalled',
    });
  });

  test('it is the notice the first foreign event queued, byte for byte, whatever changed since', () => {
    const first = step(idle(5), foreign(8));
    const queued = noticeOf(WATCHER, TARGET, first);
    expect(queued?.reason).toBe('first');
    const later = cursorAfter([seed(5), foreign(8), foreign(11), event(12, 'goal_changed', WATCHER), foreign(13, 'compacted')]);
    expect(later).toStrictEqual(pending(5, 8, 11));
    expect(later && heldNoticeOf(WATCHER, TARGET, later)).toStrictEqual({ ...queued, reason: 'signalled' });
  });

  test('after a reopen it holds the reopened notice', () => {
    const afterDrain = step(pending(5, 8, 11), drain(8));
    const notice = noticeOf(WATCHER, TARGET, afterDrain);
    expect(notice?.reason).toBe('reopen');
    expect(afterDrain.cursor && heldNoticeOf(WATCHER, TARGET, afterDrain.cursor)).toStrictEqual({ ...notice, reason: 'signalled' });
  });

  test('a stored row whose notified was not raised holds the notice at material, as fromWatermarks reads it (what a drain compares against)', () => {
    const cursor = fromWatermarks({ acked: seq(5), notified: seq(5), material: seq(9) });
    expect(heldNoticeOf(WATCHER, TARGET, cursor)?.notified).toBe(9);
    expect(step(cursor, drain(9)).drain).toBe('acked');
  });

  test('draining the held notice acknowledges up to notified and reopens for the rest, exactly as draining the queued one', () => {
    const cursor = pending(5, 8, 11);
    const held = heldNoticeOf(WATCHER, TARGET, cursor);
    expect(held?.notified).toBe(8);
    const drained = held && step(cursor, drain(held.notified));
    expect(drained).toStrictEqual(step(cursor, drain(8)));
    expect(drained?.cursor).toStrictEqual(pending(8, 11, 11));
  });
});

describe('watermarks round-trip', () => {
  test('idle and pending cursors survive toWatermarks/fromWatermarks', () => {
    for (const cursor of [idle(0), idle(7), pending(3, 4, 4), pending(3, 4, 9)]) {
      expect(fromWatermarks(toWatermarks(cursor))).toStrictEqual(cursor);
    }
  });
});

describe('the events decide emits beside the journalled ones', () => {
  const other = 'agent:ops:main';
  test('a pending cursor meeting a foreign change emits the target event, then notice_held naming the repeat', () => {
    const decision = decide({ type: 'observe', watcher: WATCHER, sequence: seq(11), kind: 'goal_changed', actorSessionKey: other }, pending(5, 8, 8));
    expect(decision).toStrictEqual({
      events: [
        { type: 'target_event', watcher: WATCHER, sequence: seq(11), kind: 'goal_changed', actorSessionKey: other },
        { type: 'notice_held', reason: 'repeat', acked: seq(5), notified: seq(8) },
      ],
      notice: { acked: seq(5), notified: seq(8), reason: 'repeat' },
    });
  });

  test('a foreign change at or below material emits only notice_held', () => {
    expect(decide({ type: 'observe', watcher: WATCHER, sequence: seq(9), kind: 'goal_changed' }, pending(5, 8, 11)).events).toStrictEqual([
      { type: 'notice_held', reason: 'repeat', acked: seq(5), notified: seq(8) },
    ]);
  });

  test('a stale drain, a scan over notified = material and a reread of a pending cursor each emit one notice_held', () => {
    const cursor = pending(5, 8, 8);
    expect(decide({ type: 'drain', notified: seq(6) }, cursor).events).toStrictEqual([{ type: 'notice_held', reason: 'repeat', acked: seq(5), notified: seq(8) }]);
    expect(decide({ type: 'restartScan' }, cursor).events).toStrictEqual([{ type: 'notice_held', reason: 'recovered', acked: seq(5), notified: seq(8) }]);
    expect(decide({ type: 'reread' }, cursor).events).toStrictEqual([{ type: 'notice_held', reason: 'signalled', acked: seq(5), notified: seq(8) }]);
  });

  test('an idle cursor or a pair without one: a reread emits nothing', () => {
    expect(decide({ type: 'reread' }, idle(5))).toStrictEqual({ events: [] });
    expect(decide({ type: 'reread' }, undefined)).toStrictEqual({ events: [] });
  });
});
