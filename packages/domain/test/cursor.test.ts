// Given/When/Then tests for the watcher cursor decider, one block per row of the spec's cursor
// table (§5): each step's cursor events, the cursor after them, and the notice it asks for.
import { describe, expect, test } from '@jest/globals';

import { fromWatermarks, toWatermarks, type Cursor } from '../src/cursor/cursor.js';
import type { EventKind } from '../src/input/eventKind.js';
import { noticeText } from '../src/notice.js';
import {
  TARGET,
  WATCHER,
  acknowledged,
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
  raised,
  read,
  recovered,
  reopened,
  restartScan,
  seed,
  seq,
  started,
  stepOf,
  type CursorResult,
  type CursorTestInput,
} from './support/cursorSpec.js';

const spec = cursorSpec(WATCHER);

const NOTIFYING: readonly EventKind[] = ['human_direct_message', 'goal_changed', 'upstream_missing'];
const NOT_NOTIFYING: readonly EventKind[] = ['child_spawned', 'run_completed', 'run_failed', 'compacted', 'adopted'];

/** The notice text a step would queue for the (WATCHER, TARGET) pair. */
const textOf = (step: CursorResult | undefined): string | undefined => noticeOf(WATCHER, TARGET, step)?.text;

/** One step of the (WATCHER, TARGET) cursor. */
const step = (cursor: Cursor | undefined, input: CursorTestInput): CursorResult => stepOf(WATCHER, cursor, input);

// --- seed ----------------------------------------------------------------------------------

describe('seed at s', () => {
  test('creates an idle cursor with acked = notified = material = s', () => {
    spec.given([]).when(seed(5)).then({ events: [started(5)], cursor: idle(5), changed: true });
  });

  test('overwrites a pending cursor (a new spawn edge): the old watch ends as replaced, no notice', () => {
    spec.given([seed(5), foreign(8)]).when(seed(12)).then({ events: [ended('replaced'), started(12)], cursor: idle(12), changed: true });
  });

  test('an explicit watch starts a cursor on a pair without one and keeps an existing one as it is', () => {
    spec.given([]).when({ type: 'watch', at: seq(5), via: 'watch' }).then({ events: [started(5, 'watch')], cursor: idle(5), changed: true });
    spec.given([seed(5), foreign(8)]).when({ type: 'watch', at: seq(12), via: 'watch' }).then({ events: [], cursor: pending(5, 8, 8), changed: false });
  });

  test('stores all three watermarks at s', () => {
    spec.given([]).when(seed(5)).thenCheck((result) => {
      expect(result.cursor && toWatermarks(result.cursor)).toStrictEqual({ acked: 5, notified: 5, material: 5 });
    });
  });

  test('any input but a watch on a pair without a cursor does nothing', () => {
    for (const input of [foreign(3), drain(3), restartScan, end('reset')]) {
      const result = step(undefined, input);
      expect([result.events, result.cursor, result.changed, result.notice]).toStrictEqual([[], undefined, false, undefined]);
    }
  });
});

// --- notifying event by someone else, idle ------------------------------------------------

describe('notifying event e by someone else while idle', () => {
  test.each(NOTIFYING)('%s sets notified = material = e and queues one notice, reason first', (kind) => {
    spec
      .given([seed(5)])
      .when(foreign(8, kind))
      .then({
        events: [raised(5, 8)],
        cursor: pending(5, 8, 8),
        changed: true,
        notice: { acked: seq(5), notified: seq(8), reason: 'first' },
      });
  });

  test('an event without actorSessionKey (a human) is foreign', () => {
    spec
      .given([seed(5)])
      .when(event(8, 'human_direct_message'))
      .then({ events: [raised(5, 8)], cursor: pending(5, 8, 8), changed: true, notice: { acked: seq(5), notified: seq(8), reason: 'first' } });
  });

  test('the queued notice prints acked and quotes the target', () => {
    spec
      .given([seed(5)])
      .when(foreign(8))
      .thenCheck((step) => {
        expect(textOf(step)).toBe(
          `Session "${TARGET}" changed (other actor). Reconcile before acting: session_status sessionKey "${TARGET}" changesSince 5.`,
        );
      });
  });

  test('an event at or below acked (history before the seed) does nothing', () => {
    spec.given([seed(5)]).when(foreign(5)).then({ events: [], cursor: idle(5), changed: false });
  });
});

// --- notifying event by someone else, pending ----------------------------------------------

describe('notifying event e by someone else while pending', () => {
  test.each(NOTIFYING)('%s moves only material (no cursor event) and re-offers the pending notice', (kind) => {
    spec
      .given([seed(5), foreign(8)])
      .when(foreign(11, kind))
      .then({
        events: [],
        cursor: pending(5, 8, 11),
        changed: true,
        notice: { acked: seq(5), notified: seq(8), reason: 'repeat' },
      });
  });

  test('the re-offered text is byte-for-byte the text of the first notice', () => {
    const first = step(idle(5), foreign(8));
    const repeated = step(pending(5, 8, 8), foreign(11));
    const again = step(pending(5, 8, 11), foreign(20, 'goal_changed'));
    expect(textOf(first)).toBeDefined();
    expect(textOf(repeated)).toBe(textOf(first));
    expect(textOf(again)).toBe(textOf(first));
  });
});

// --- self-caused events --------------------------------------------------------------------

describe('event caused by the watcher itself (actorSessionKey = watcher)', () => {
  test.each(NOTIFYING)('%s while idle: no notice, no watermark moves', (kind) => {
    spec.given([seed(5)]).when(event(8, kind, WATCHER)).then({ events: [], cursor: idle(5), changed: false });
  });

  test.each(NOTIFYING)('%s while pending: no notice, material stays', (kind) => {
    spec.given([seed(5), foreign(8)]).when(event(11, kind, WATCHER)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
  });

  test('an event by a different watcher of the same target still notifies this one', () => {
    spec
      .given([seed(5)])
      .when(event(8, 'goal_changed', 'agent:other:main'))
      .then({ events: [raised(5, 8)], cursor: pending(5, 8, 8), changed: true, notice: { acked: seq(5), notified: seq(8), reason: 'first' } });
  });
});

// --- log-only and seed kinds ---------------------------------------------------------------

describe('log-only and seed kinds', () => {
  test.each(NOT_NOTIFYING)('%s by someone else while idle does nothing', (kind) => {
    spec.given([seed(5)]).when(foreign(8, kind)).then({ events: [], cursor: idle(5), changed: false });
  });

  test.each(NOT_NOTIFYING)('%s by someone else while pending does nothing (no re-offer)', (kind) => {
    spec.given([seed(5), foreign(8)]).when(foreign(11, kind)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
  });
});

// --- drain ---------------------------------------------------------------------------------

describe('drain (the watcher consumes the notice)', () => {
  test('without interleaving: acked = notified, the cursor goes idle, no notice', () => {
    spec.given([seed(5), foreign(8)]).when(drain(8)).then({ events: [acknowledged(8)], cursor: idle(8), changed: true, drain: 'acked' });
  });

  test('with interleaving: acks, then reopens exactly one notice with the new acked', () => {
    spec
      .given([seed(5), foreign(8), foreign(11), foreign(13, 'upstream_missing')])
      .when(drain(8))
      .then({
        events: [reopened(8, 13)],
        cursor: pending(8, 13, 13),
        changed: true,
        drain: 'acked',
        notice: { acked: seq(8), notified: seq(13), reason: 'reopen' },
      });
  });

  test('the reopened notice prints the new acked', () => {
    spec
      .given([seed(5), foreign(8), foreign(11)])
      .when(drain(8))
      .thenCheck((step) => {
        expect(textOf(step)).toBe(noticeText(TARGET, seq(8)));
        expect(textOf(step)).not.toBe(noticeText(TARGET, seq(5)));
      });
  });

  test('draining the reopened notice then goes idle at the newest material', () => {
    spec
      .given([seed(5), foreign(8), foreign(11), drain(8)])
      .when(drain(11))
      .then({ events: [acknowledged(11)], cursor: idle(11), changed: true, drain: 'acked' });
  });

  test('only foreign notifying events interleaved: self and log-only events do not reopen', () => {
    spec
      .given([seed(5), foreign(8), event(9, 'goal_changed', WATCHER), foreign(10, 'compacted')])
      .when(drain(8))
      .then({ events: [acknowledged(8)], cursor: idle(8), changed: true, drain: 'acked' });
  });
});

describe('drain compare-and-swap', () => {
  test('a drain of a notified that is no longer frozen is stale: nothing acked, pending re-offered', () => {
    spec
      .given([seed(5), foreign(8), foreign(11), restartScan])
      .when(drain(8))
      .then({
        events: [],
        cursor: pending(5, 11, 11),
        changed: false,
        drain: 'stale',
        notice: { acked: seq(5), notified: seq(11), reason: 'repeat' },
      });
  });

  test('a drain of an idle cursor is stale and offers nothing', () => {
    spec.given([seed(5), foreign(8), drain(8)]).when(drain(8)).then({ events: [], cursor: idle(8), changed: false, drain: 'stale' });
  });

  test('a drain of a pair without a cursor is stale and offers nothing', () => {
    spec.given([]).when(drain(8)).then({ events: [], cursor: undefined, changed: false, drain: 'stale' });
  });
});

// --- restart scan --------------------------------------------------------------------------

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

// --- end, prune ------------------------------------------------------------------------------

// --- read: a reconcile that acknowledges ------------------------------------------------

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

// --- the held notice (the owner's re-read after a cross-process signal) --------------------

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

// --- stored watermarks ---------------------------------------------------------------------

describe('watermarks round-trip', () => {
  test('idle and pending cursors survive toWatermarks/fromWatermarks', () => {
    for (const cursor of [idle(0), idle(7), pending(3, 4, 4), pending(3, 4, 9)]) {
      expect(fromWatermarks(toWatermarks(cursor))).toStrictEqual(cursor);
    }
  });
});
