// planAppend: the stored event, which cursor rows one append writes (or seeds), and the notices.
import { describe, expect, test } from '@jest/globals';
import * as E from 'fp-ts/lib/Either.js';

import { planAppend, toStoredEvent, type CursorRow } from '../src/log/append.js';
import { decodeRecordInput, type AppendCommand } from '../src/input/recordInput.js';
import { asSequence } from '../src/log/sequence.js';
import type { SessionKey } from '../src/input/sessionKey.js';

const PARENT = 'agent:main:main' as SessionKey;
const PEER = 'agent:ops:main' as SessionKey;
const CHILD = 'agent:main:subagent:child-7' as SessionKey;
const T0 = Date.UTC(2026, 10, 29, 10);
const NOW = T0 + 60_000;

function command(fields: Record<string, unknown>): AppendCommand {
  const result = decodeRecordInput({ sessionKey: CHILD, actorType: 'human', summary: 'a change', ...fields });
  if (E.isLeft(result)) throw new Error(result.left.message);
  return result.right;
}

const row = (watcher: SessionKey, acked: number, notified = acked, material = notified): CursorRow => ({
  watcher,
  target: CHILD,
  acked: asSequence(acked),
  notified: asSequence(notified),
  material: asSequence(material),
  touchedAt: T0,
});

describe('planAppend', () => {
  test('a foreign notifying event moves every idle cursor on the target and returns one first notice each', () => {
    const plan = planAppend({
      command: command({ kind: 'human_direct_message' }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4), row(PEER, 6)],
    });
    expect(plan.cursorWrites).toStrictEqual([
      { ...row(PARENT, 4, 9, 9), touchedAt: NOW },
      { ...row(PEER, 6, 9, 9), touchedAt: NOW },
    ]);
    expect(plan.notices).toStrictEqual([
      { watcher: PARENT, target: CHILD, acked: 4, notified: 9, reason: 'first' },
      { watcher: PEER, target: CHILD, acked: 6, notified: 9, reason: 'first' },
    ]);
  });

  test("the event carries the store's own payload copy when the store passes one, else the command's", () => {
    const given = command({ kind: 'human_direct_message', payload: { channel: 'telegram' } });
    const copy = { channel: 'telegram' };
    const planned = (payload?: typeof copy) =>
      planAppend({ command: given, sequence: asSequence(9), appendedAt: NOW, cursorsOnTarget: [row(PARENT, 4)], ...(payload !== undefined ? { payload } : {}) });
    expect(planned(copy).event.payload).toBe(copy);
    expect(planned().event.payload).toBe(given.payload);
  });

  test('an append that moves no cursor returns empty writes, journal and notices', () => {
    const plan = planAppend({
      command: command({ kind: 'human_direct_message', actorType: 'agent', actorSessionKey: PARENT }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4)],
    });
    expect(plan).toStrictEqual({ event: plan.event, cursorWrites: [], journal: [], notices: [] });
  });

  test('while pending: material moves, the same notice (acked, notified) is returned again as a repeat', () => {
    const plan = planAppend({
      command: command({ kind: 'goal_changed', actorType: 'agent', actorSessionKey: PEER }),
      sequence: asSequence(12),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4, 9, 9)],
    });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PARENT, 4, 9, 12), touchedAt: NOW }]);
    expect(plan.notices).toStrictEqual([
      { watcher: PARENT, target: CHILD, acked: 4, notified: 9, reason: 'repeat' },
    ]);
  });

  test('self-suppression: the watcher that caused the event is neither written nor notified', () => {
    const plan = planAppend({
      command: command({ kind: 'goal_changed', actorType: 'agent', actorSessionKey: PARENT }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4), row(PEER, 6)],
    });
    expect(plan.cursorWrites.map((w) => w.watcher)).toStrictEqual([PEER]);
    expect(plan.notices.map((n) => n.watcher)).toStrictEqual([PEER]);
  });

  test.each([['run_completed'], ['compacted'], ['adopted'], ['created']])('a log-only %s writes no cursor and returns no notice', (kind) => {
    const plan = planAppend({
      command: command({ kind }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4), row(PEER, 2, 5, 7)],
    });
    expect(plan.cursorWrites).toStrictEqual([]);
    expect(plan.notices).toStrictEqual([]);
  });

  test('writes only rows on the target: every write names the event\'s session as target', () => {
    const plan = planAppend({
      command: command({ kind: 'upstream_missing', actorType: 'system' }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4), row(PEER, 6)],
    });
    expect(plan.cursorWrites.length).toBe(2);
    for (const write of plan.cursorWrites) expect(write.target).toBe(CHILD);
    for (const notice of plan.notices) expect(notice.target).toBe(CHILD);
  });

  test('with no cursor on the target nothing but the event is planned', () => {
    const plan = planAppend({ command: command({ kind: 'human_direct_message' }), sequence: asSequence(3), appendedAt: NOW, cursorsOnTarget: [] });
    expect(plan.cursorWrites).toStrictEqual([]);
    expect(plan.notices).toStrictEqual([]);
    expect(plan.event.sequence).toBe(3);
  });
});

describe('planAppend for a spawn edge (seedWatcher)', () => {
  const spawn = command({ kind: 'child_spawned', actorType: 'agent', actorSessionKey: PARENT, summary: 'spawned' });

  test('seeds the parent\'s cursor at the event\'s sequence when it has none', () => {
    const plan = planAppend({ command: spawn, sequence: asSequence(9), appendedAt: NOW, cursorsOnTarget: [], seedWatcher: PARENT });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PARENT, 9), touchedAt: NOW }]);
    expect(plan.notices).toStrictEqual([]);
  });

  test('overwrites an existing (pending) cursor of the parent with all three watermarks at the sequence', () => {
    const plan = planAppend({
      command: spawn,
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 2, 5, 7)],
      seedWatcher: PARENT,
    });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PARENT, 9), touchedAt: NOW }]);
    expect(plan.notices).toStrictEqual([]);
  });

  test('leaves other watchers\' cursors on the child alone (child_spawned is not notifying)', () => {
    const plan = planAppend({
      command: spawn,
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PEER, 2, 5, 7), row(PARENT, 4)],
      seedWatcher: PARENT,
    });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PARENT, 9), touchedAt: NOW }]);
    expect(plan.notices).toStrictEqual([]);
  });

  test('the parent\'s row is written exactly once', () => {
    const plan = planAppend({
      command: command({ kind: 'human_direct_message' }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [row(PARENT, 4)],
      seedWatcher: PARENT,
    });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PARENT, 9), touchedAt: NOW }]);
    expect(plan.notices).toStrictEqual([]);
  });
});

describe('toStoredEvent', () => {
  test('occurredAt defaults to the append time as ISO; optional fields appear only when given', () => {
    const event = toStoredEvent(command({ kind: 'human_direct_message' }), asSequence(5), NOW);
    expect(event).toStrictEqual({
      sessionKey: CHILD,
      sequence: 5,
      kind: 'human_direct_message',
      actorType: 'human',
      summary: 'a change',
      occurredAt: new Date(NOW).toISOString(),
      appendedAt: NOW,
    });
  });

  test('keeps the given occurredAt, actor, payload and dedupe key', () => {
    const event = toStoredEvent(
      command({
        kind: 'run_failed',
        actorType: 'system',
        actorSessionKey: PARENT,
        payload: { outcome: 'timeout' },
        dedupeKey: 'run-terminal:r1',
        occurredAt: T0,
      }),
      asSequence(5),
      NOW,
    );
    expect(event).toMatchObject({
      actorSessionKey: PARENT,
      payload: { outcome: 'timeout' },
      dedupeKey: 'run-terminal:r1',
      occurredAt: new Date(T0).toISOString(),
      appendedAt: NOW,
    });
  });
  test('a named watcher without a cursor first watches at the head before the event, so the event raises its notice; one with a cursor (ambient: its notice too) is moved as any', () => {
    const plan = planAppend({
      command: command({ kind: 'human_direct_message', watchers: [PARENT, PEER] }),
      sequence: asSequence(9),
      appendedAt: NOW,
      cursorsOnTarget: [{ ...row(PEER, 6), ambient: true }],
      headBefore: asSequence(7),
    });
    expect(plan.cursorWrites).toStrictEqual([{ ...row(PEER, 6, 9, 9), touchedAt: NOW, ambient: true }, { ...row(PARENT, 7, 9, 9), touchedAt: NOW }]);
    expect(plan.journal.map((entry) => [entry.watcher, entry.event.type])).toStrictEqual([[PEER, 'notice_raised'], [PARENT, 'watch_started'], [PARENT, 'notice_raised']]);
    expect(plan.notices.map((notice) => [notice.watcher, notice.acked, notice.reason, notice.ambient])).toStrictEqual([[PEER, 6, 'first', true], [PARENT, 7, 'first', undefined]]);
  });
});
