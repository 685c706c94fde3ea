// The cursor journal's stored rows, replay, explain and the head-write planner.
import { describe, expect, test } from '@jest/globals';

import { toWatermarks, type CursorEvent } from '../src/cursor/cursor.js';
import { journalRecords, type CursorJournalEntry } from '../src/cursor/journal.js';
import { replayCursor } from '../src/cursor/replay.js';
import { explainPair } from '../src/cursor/explain.js';
import { asSequence } from '../src/log/sequence.js';
import type { SessionKey } from '../src/input/sessionKey.js';
import { planHeadWrite } from '../src/log/signalLog.js';
import { idle, pending, seq } from './support/cursorSpec.js';

const W = 'agent:main:main' as SessionKey;
const T = 'agent:main:subagent:child-7' as SessionKey;
const T0 = Date.UTC(2026, 10, 29, 10);

/** A pair's journal as the planners would write it, with positions from 1. */
function journalOf(events: readonly CursorEvent[]): CursorJournalEntry[] {
  return journalRecords(W, T, undefined, events, T0).map((record, i) => ({ ...record, position: i + 1 }));
}

const HISTORY: readonly CursorEvent[] = [
  { type: 'watch_started', via: 'spawn', at: seq(3) },
  { type: 'notice_raised', acked: seq(3), notified: seq(5) },
  { type: 'notice_reopened', acked: seq(5), notified: seq(9) },
  { type: 'material_kept', material: seq(12) },
  { type: 'notice_recovered', acked: seq(5), notified: seq(12) },
  { type: 'notice_acknowledged', acked: seq(12) },
  { type: 'watch_ended', reason: 'reset' },
];

describe('journalRecords', () => {
  test('each record carries the watermarks after its event (the last ones for watch_ended)', () => {
    expect(journalOf(HISTORY).map((entry) => [entry.acked, entry.notified, entry.material])).toStrictEqual([
      [3, 3, 3],
      [3, 5, 5],
      [5, 9, 9],
      [5, 9, 12],
      [5, 12, 12],
      [12, 12, 12],
      [12, 12, 12],
    ]);
  });
});

describe('replayCursor', () => {
  const foreignAt = (sequence: number) => ({ sequence: asSequence(sequence), kind: 'goal_changed' as const, actorSessionKey: 'agent:ops:main' as SessionKey });

  test('folds the journal, then the target events above the last entry’s material (foreign notifying ones raise material)', () => {
    const journal = journalOf(HISTORY.slice(0, 3));
    const events = [foreignAt(5), foreignAt(9), foreignAt(11), { ...foreignAt(13), actorSessionKey: W }, { ...foreignAt(14), kind: 'compacted' as const }];
    expect(replayCursor(journal, events)).toStrictEqual(pending(5, 9, 11));
  });

  test('starts from the oldest retained entry’s watermarks when retention removed the watch start', () => {
    expect(replayCursor(journalOf(HISTORY.slice(0, 5)).slice(3), [])).toStrictEqual(pending(5, 12, 12));
    expect(replayCursor(journalOf(HISTORY.slice(0, 6)).slice(5), [foreignAt(20)])).toStrictEqual(idle(12));
  });

  test('an ended watch replays to no cursor; a spawn after it starts over', () => {
    expect(replayCursor(journalOf(HISTORY), [])).toBeUndefined();
    const again = journalOf([...HISTORY, { type: 'watch_started', via: 'watch', at: seq(30) }]);
    expect(replayCursor(again, [foreignAt(12)])).toStrictEqual(idle(30));
    expect(replayCursor([], [])).toBeUndefined();
  });
});

describe('explainPair', () => {
  test('one line per entry with its watermarks, and a closing line; the JSON steps carry the same', () => {
    const explained = explainPair(journalOf(HISTORY.slice(0, 3)), { watcher: W, target: T });
    expect(explained.status).toBe('watching');
    expect(explained.truncated).toBe(false);
    expect(explained.lines).toStrictEqual([
      `#1 2026-11-29T10:00:00.000Z watch started at 3: the watcher spawned the target (spawn edge); changes up to 3 never notify it [acked 3, notified 3, material 3]`,
      `#2 2026-11-29T10:00:00.000Z notice raised: a change by another actor at 5 while idle at 3; the notice is frozen at 5 and says changesSince 3 [acked 3, notified 5, material 5]`,
      `#3 2026-11-29T10:00:00.000Z notice reopened: a drain acknowledged up to 5 while changes up to 9 had arrived; one new notice is frozen at 9 and says changesSince 5 [acked 5, notified 9, material 9]`,
      'now (as of the last entry): one notice pending, changesSince 5, frozen at 9; later changes raise material (9 then) without an entry',
    ]);
    expect(explained.steps.map((step) => [step.position, step.event.type, toWatermarks(pending(step.acked, step.notified, step.material))])).toStrictEqual([
      [1, 'watch_started', { acked: 3, notified: 3, material: 3 }],
      [2, 'notice_raised', { acked: 3, notified: 5, material: 5 }],
      [3, 'notice_reopened', { acked: 5, notified: 9, material: 9 }],
    ]);
    expect(JSON.parse(JSON.stringify(explained))).toStrictEqual(explained);
  });

  test('an ended watch says why; a history whose start was pruned says so; no entries says so', () => {
    const ended = explainPair(journalOf(HISTORY));
    expect(ended.status).toBe('ended');
    expect(ended.lines.slice(-2)).toStrictEqual([
      '#7 2026-11-29T10:00:00.000Z watch ended (reset): the watcher session was reset [acked 12, notified 12, material 12]',
      'now: not watching',
    ]);
    const truncated = explainPair(journalOf(HISTORY).slice(3, 5));
    expect(truncated.truncated).toBe(true);
    expect(truncated.lines[0]).toBe('(retention removed the start of this history; it begins mid-watch)');
    expect(truncated.lines[1]).toContain('material kept: retention pruned the target’s change at 12'.replace('’', "'"));
    expect(explainPair([], { watcher: W, target: T })).toMatchObject({ status: 'unknown', steps: [], lines: ['no journal entries: the pair was never watched, or retention removed its history'] });
  });
});

describe('an ambient watch in the journal', () => {
  const AMBIENT: readonly CursorEvent[] = [
    { type: 'watch_started', via: 'ambient', at: seq(3) },
    { type: 'notice_raised', acked: seq(3), notified: seq(5) },
    { type: 'watch_promoted' },
    { type: 'notice_acknowledged', acked: seq(5) },
  ];

  test('each entry carries the class after it; replay rebuilds it, from the watch start or from a later entry when retention removed the start', () => {
    expect(journalOf(AMBIENT).map((entry) => entry.ambient === true)).toStrictEqual([true, true, false, false]);
    expect(replayCursor(journalOf(AMBIENT.slice(0, 2)), [])).toStrictEqual({ ...pending(3, 5, 5), ambient: true });
    expect(replayCursor(journalOf(AMBIENT.slice(0, 2)).slice(1), [])).toStrictEqual({ ...pending(3, 5, 5), ambient: true });
    expect(replayCursor(journalOf(AMBIENT), [])).toStrictEqual(idle(5));
  });

  test('explain says how the watch began, marks the ambient entries and explains the promotion', () => {
    expect(explainPair(journalOf(AMBIENT.slice(0, 3))).lines.slice(0, 3)).toStrictEqual([
      '#1 2026-11-29T10:00:00.000Z watch started at 3: an ambient watch (its notices are queued but wake nobody), at the target\'s head then [acked 3, notified 3, material 3, ambient]',
      '#2 2026-11-29T10:00:00.000Z notice raised: a change by another actor at 5 while idle at 3; the notice is frozen at 5 and says changesSince 3 [acked 3, notified 5, material 5, ambient]',
      '#3 2026-11-29T10:00:00.000Z watch promoted: an explicit watch of this ambient watch; its notices wake the watcher from now on [acked 3, notified 5, material 5]',
    ]);
  });
});

describe('planHeadWrite', () => {
  const head = (h: number, w: number) => ({ head: seq(h), pruneWatermark: seq(w) });

  test('inserts a new head, updates a raised one, and writes nothing when nothing rises', () => {
    expect(planHeadWrite(undefined, [{ type: 'appended', sequence: seq(4) }])).toStrictEqual({ type: 'insert', head: head(4, 0) });
    expect(planHeadWrite(head(4, 0), [{ type: 'appended', sequence: seq(9) }, { type: 'pruned', highestDeleted: seq(4) }])).toStrictEqual({ type: 'update', head: head(9, 4) });
    expect(planHeadWrite(head(9, 4), [{ type: 'appended', sequence: seq(7) }, { type: 'deleted', highestDeleted: seq(2) }])).toStrictEqual({ type: 'none' });
  });
});
