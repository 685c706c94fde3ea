// Given/When/Then tests for the watcher cursor decider, one block per row of the spec's cursor
// table (§5): each step's cursor events, the cursor after them, and the notice it asks for.
import { describe, expect, test } from '@jest/globals';

import { toWatermarks, type Cursor } from '../src/cursor/cursor.js';
import type { EventKind } from '../src/input/eventKind.js';
import { noticeText } from '../src/notice.js';
import { stepPair } from '../src/cursor/plans.js';
import type { SessionKey } from '../src/input/sessionKey.js';
import {
  OTHER,
  TARGET,
  WATCHER,
  acknowledged,
  cursorSpec,
  drain,
  end,
  ended,
  event,
  foreign,
  idle,
  noticeOf,
  pending,
  raised,
  read,
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
const NOT_NOTIFYING: readonly EventKind[] = ['child_spawned', 'run_completed', 'run_failed', 'compacted', 'adopted', 'created'];

/** The notice text a step would queue for the (WATCHER, TARGET) pair. */
const textOf = (step: CursorResult | undefined): string | undefined => noticeOf(WATCHER, TARGET, step)?.text;

/** One step of the (WATCHER, TARGET) cursor. */
const step = (cursor: Cursor | undefined, input: CursorTestInput): CursorResult => stepOf(WATCHER, cursor, input);

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

describe('log-only and seed kinds', () => {
  test.each(NOT_NOTIFYING)('%s by someone else while idle does nothing', (kind) => {
    spec.given([seed(5)]).when(foreign(8, kind)).then({ events: [], cursor: idle(5), changed: false });
  });

  test.each(NOT_NOTIFYING)('%s by someone else while pending does nothing (no re-offer)', (kind) => {
    spec.given([seed(5), foreign(8)]).when(foreign(11, kind)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
  });
});

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

describe('take (the watcher takes the notice, leased until a time) and confirm (a drain of what it took)', () => {
  const take = (notified: number, now: number, until: number): CursorTestInput => ({ type: 'take', notified: seq(notified), now, until });
  const taken = (acked: number, notified: number, material: number, until: number): Cursor => ({ ...pending(acked, notified, material), takenUntil: until } as Cursor);

  test('a take of the pending notice journals notice_taken and names it, reason taken, with its lease; nothing is acknowledged', () => {
    spec.given([seed(5), foreign(8)]).when(take(8, 100, 400)).then({
      events: [{ type: 'notice_taken', acked: seq(5), notified: seq(8), material: seq(8), until: 400 }],
      cursor: taken(5, 8, 8, 400),
      changed: true,
      notice: { acked: seq(5), notified: seq(8), reason: 'taken', takenUntil: 400 },
    });
  });

  test('while the lease runs a second take hands nothing out: it names the notice as it stands, with the lease, and journals nothing', () => {
    spec.given([seed(5), foreign(8), take(8, 100, 400)]).when(take(8, 399, 700)).then({
      events: [],
      cursor: taken(5, 8, 8, 400),
      changed: false,
      notice: { acked: seq(5), notified: seq(8), reason: 'repeat', takenUntil: 400 },
    });
  });

  test('once the lease is over, a take journals lease_expired and takes the notice again', () => {
    spec.given([seed(5), foreign(8), take(8, 100, 400)]).when(take(8, 400, 700)).then({
      events: [{ type: 'lease_expired' }, { type: 'notice_taken', acked: seq(5), notified: seq(8), material: seq(8), until: 700 }],
      cursor: taken(5, 8, 8, 700),
      changed: true,
      notice: { acked: seq(5), notified: seq(8), reason: 'taken', takenUntil: 700 },
    });
  });

  test('a take of another frozen watermark is stale: nothing taken, the notice as it stands', () => {
    spec.given([seed(5), foreign(8), foreign(9), restartScan]).when(take(8, 100, 400)).then({
      events: [],
      cursor: pending(5, 9, 9),
      changed: false,
      notice: { acked: seq(5), notified: seq(9), reason: 'repeat' },
    });
  });

  test('a change while taken raises material and keeps the lease; the confirm (a drain) then reopens one notice, not taken', () => {
    spec.given([seed(5), foreign(8), take(8, 100, 400), foreign(11)]).when(drain(8)).then({
      events: [reopened(8, 11)],
      cursor: pending(8, 11, 11),
      changed: true,
      drain: 'acked',
      notice: { acked: seq(8), notified: seq(11), reason: 'reopen' },
    });
  });

  test('a confirm after a read that reached the head is stale and names nothing: no reopen, no wake', () => {
    spec.given([seed(5), foreign(8), take(8, 100, 400), foreign(11), { type: 'read', since: seq(5), through: seq(11) }]).when(drain(8)).then({ events: [], cursor: idle(11), changed: false, drain: 'stale' });
  });

  test('the restart scan ends a lease: lease_expired when nothing newer arrived, or notice_recovered (not taken) when it did', () => {
    spec.given([seed(5), foreign(8), take(8, 100, 400)]).when(restartScan).then({
      events: [{ type: 'lease_expired' }],
      cursor: pending(5, 8, 8),
      changed: true,
      notice: { acked: seq(5), notified: seq(8), reason: 'recovered' },
    });
    spec.given([seed(5), foreign(8), take(8, 100, 400), foreign(11)]).when(restartScan).then({
      events: [{ type: 'notice_recovered', acked: seq(5), notified: seq(11) }],
      cursor: pending(5, 11, 11),
      changed: true,
      notice: { acked: seq(5), notified: seq(11), reason: 'recovered' },
    });
  });
});

describe('watch classes', () => {
  const ambient = (at: number): CursorTestInput => ({ type: 'watch', at: seq(at), via: 'ambient' });
  const explicit = (at: number): CursorTestInput => ({ type: 'watch', at: seq(at), via: 'watch' });

  test('an ambient watch starts an ambient cursor on a pair without one and keeps any existing cursor as it is (never a downgrade)', () => {
    spec.given([]).when(ambient(5)).then({ events: [started(5, 'ambient')], cursor: { ...idle(5), ambient: true }, changed: true });
    spec.given([seed(5), foreign(8)]).when(ambient(12)).then({ events: [], cursor: pending(5, 8, 8), changed: false });
    spec.given([explicit(5)]).when(ambient(12)).then({ events: [], cursor: idle(5), changed: false });
    spec.given([ambient(5)]).when(ambient(12)).then({ events: [], cursor: { ...idle(5), ambient: true }, changed: false });
  });

  test('an explicit watch promotes an ambient cursor, watermarks and notice kept (watch_promoted); a spawn edge replaces it with a spawn cursor', () => {
    spec.given([ambient(5), foreign(8)]).when(explicit(12)).then({ events: [{ type: 'watch_promoted' }], cursor: pending(5, 8, 8), changed: true });
    spec.given([ambient(5), foreign(8)]).when(seed(12)).then({ events: [ended('replaced'), started(12)], cursor: idle(12), changed: true });
  });

  test('the class outlives every event of the watch: raised, repeated, taken, drained and reopened, read, recovered', () => {
    const inputs: CursorTestInput[] = [ambient(5), foreign(8), foreign(9), { type: 'take', notified: seq(8), now: 1, until: 10 }, drain(8), read(8, 9), foreign(11), restartScan];
    let cursor: Cursor | undefined;
    for (const input of inputs) {
      cursor = step(cursor, input).cursor;
      expect(cursor?.ambient).toBe(true);
    }
  });

  test('the notice of an ambient cursor is marked ambient where the planners name it (stepPair), and only there', () => {
    const pair = { watcher: WATCHER as SessionKey, target: TARGET as SessionKey };
    const row = { acked: seq(5), notified: seq(5), material: seq(5), ambient: true };
    const observe = { type: 'observe', watcher: WATCHER, sequence: seq(8), kind: 'goal_changed', actorSessionKey: OTHER } as const;
    expect(stepPair(pair, row, observe, 1).notice).toStrictEqual({ ...pair, acked: seq(5), notified: seq(8), reason: 'first', ambient: true });
    expect(stepPair(pair, { ...row, ambient: false }, observe, 1).notice).toStrictEqual({ ...pair, acked: seq(5), notified: seq(8), reason: 'first' });
  });
});
