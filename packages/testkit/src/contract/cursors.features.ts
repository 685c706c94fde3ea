// The contract of cursors: how appends move them, watch, listCursors, acknowledgeRead, and the removals (unwatch,
// resetWatcher, deleteSession).
import { expect } from 'expect';

import { planAppend, type CursorEvent, type AppendRequest, type CursorRow, type SessionKey, type StoredEvent } from '@session-state/domain';

import { heldNotices, noticeOf, viewed, PROPERTY_TIMEOUT_MS, T0, key, A, B, C, D, E, CHILD, foreign, request, expectAppended, append, appendSeq, appendMany, watchAll, headOf, readAll, asRead, seqOf, byWatcher, pairOf, watermarks, cursorOf, journalAnd, journalDuring, started, type RecordSpec, type Suite } from './fixtures.js';

export function describeCursors(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;
  /** Appends `req` and checks its event, notices and cursor writes are planAppend's over the target's cursors `before`. */
  async function expectPlanned(req: AppendRequest, before: readonly CursorRow[]) {
    const outcome = expectAppended((await store.append([req]))[0]);
    const plan = planAppend({ command: req.command, sequence: outcome.event.sequence, appendedAt: req.appendedAt, cursorsOnTarget: before.filter((row) => row.target === req.command.sessionKey) });
    expect(outcome.event).toEqual(plan.event);
    expect([...outcome.notices].sort(byWatcher)).toEqual([...plan.notices].sort(byWatcher));
    const written = new Map(plan.cursorWrites.map((row) => [pairOf(row), row]));
    expect(await store.listCursors()).toEqual(before.map((row) => written.get(pairOf(row)) ?? row));
    return outcome;
  }
  describe('cursors', () => {
    test('appends move the target cursors exactly as planAppend says and return its notices', async () => {
      await watchAll(store, [[A, B], [C, B]]);
      const steps: RecordSpec[] = [
        foreign(D),
        { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A },
        { kind: 'compacted', actorType: 'system' },
        { kind: 'human_direct_message', actorType: 'human' },
      ];
      for (const [i, spec] of steps.entries()) await expectPlanned(request(B, spec, T0 + i), await store.listCursors());
    });

    test('a foreign notifying event on an idle cursor opens one notice, journalled notice_raised; more changes (a burst, the watcher’s own) repeat the same text and raise material only, journalling nothing', async () => {
      await append(store, B);
      await watchAll(store, [[A, B], [C, B]]);
      const acked = (await headOf(store, B)).head;
      const [first, raised] = await journalAnd(store, () => append(store, B, foreign(D), T0 + 1));
      const at = first.event.sequence;
      expect([...first.notices].sort(byWatcher)).toEqual([noticeOf(A, B, acked, at, 'first'), noticeOf(C, B, acked, at, 'first')]);
      const notice: CursorEvent = { type: 'notice_raised', acked, notified: at };
      expect(raised).toEqual([viewed(A, B, notice, [acked, at, at], T0 + 1), viewed(C, B, notice, [acked, at, at], T0 + 1)]);
      const [[second, last], burst] = await journalAnd(store, async () => {
        const changes = [];
        for (let i = 0; i < 5; i++) changes.push(await append(store, B, foreign(D), T0 + 2 + i));
        await append(store, B, { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A }, T0 + 8);
        return [changes[0], changes[4]];
      });
      expect(burst).toEqual([]);
      expect(second?.notices.map((n) => [n.acked, n.reason, n.notified])).toEqual([A, C].map(() => [acked, 'repeat', at]));
      expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked, notified: at, material: last?.event.sequence });
    });

    test('a record on more watchers of one target than one SQLite append step takes notifies each once as planAppend plans it; the next one repeats each notice and raises material on each but its actor', async () => {
      await append(store, B);
      const watchers = Array.from({ length: 1200 }, (_, i) => key(`agent:w${String(i).padStart(4, '0')}:main`));
      for (const watcher of watchers) await store.watch({ watcher, target: B, now: T0 });
      const first = await expectPlanned(request(B, foreign(A), T0 + 1), await store.listCursors());

      const actor = watchers[0] as SessionKey;
      const second = await append(store, B, foreign(actor), T0 + 2);
      expect(second.notices.map((notice) => notice.watcher)).toEqual(watchers.slice(1));
      expect(second.notices.every((notice) => notice.reason === 'repeat' && notice.notified === first.event.sequence)).toBe(true);
      const moved = (await store.listCursors()).map((row) => [row.watcher, row.notified, row.material, row.touchedAt]);
      expect(moved).toEqual(watchers.map((watcher) => (watcher === actor ? [watcher, first.event.sequence, first.event.sequence, T0 + 1] : [watcher, first.event.sequence, second.event.sequence, T0 + 2])));
      // One notice_raised per watcher; raising material journals nothing.
      expect((await store.readCursorJournal({ target: B })).filter((entry) => entry.event.type !== 'watch_started').map((entry) => [entry.watcher, entry.event.type])).toEqual(
        watchers.map((watcher) => [watcher, 'notice_raised']),
      );
    }, PROPERTY_TIMEOUT_MS);

    test('the watcher’s own events and log-only events move nothing', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const before = await store.listCursors();
      const own = await append(store, B, { kind: 'goal_changed', actorType: 'agent', actorSessionKey: A }, T0 + 1);
      const logOnly = await append(store, B, { kind: 'run_completed', actorType: 'system' }, T0 + 2);
      expect([own.notices, logOnly.notices]).toEqual([[], []]);
      expect(await store.listCursors()).toEqual(before);
    });

    test('a spawn edge seeds the parent’s cursor at the event (journalled watch_started via spawn), overwriting a pending one (its watch ended as replaced first), with no notice for it', async () => {
      const spawn = { kind: 'child_spawned' as const, actorType: 'agent' as const, actorSessionKey: A };
      const [first, seeded] = await journalAnd(store, () => appendSeq(store, CHILD, spawn, T0, A));
      expect(seeded).toEqual([viewed(A, CHILD, started(first, 'spawn'), [first, first, first], T0)]);
      const change = await appendSeq(store, CHILD, foreign(), T0 + 1);
      expect((await cursorOf(store, A, CHILD))?.material).toBe(change);
      const [outcome, replaced] = await journalAnd(store, () => append(store, CHILD, spawn, T0 + 2, A));
      expect(outcome.notices.filter((notice) => notice.watcher === A)).toEqual([]);
      const s = outcome.event.sequence;
      expect(await cursorOf(store, A, CHILD)).toEqual({ watcher: A, target: CHILD, acked: s, notified: s, material: s, touchedAt: T0 + 2 });
      expect(replaced).toEqual([viewed(A, CHILD, { type: 'watch_ended', reason: 'replaced' }, [first, change, change], T0 + 2), viewed(A, CHILD, started(s, 'spawn'), [s, s, s], T0 + 2)]);
    });

    test('watch creates the cursor at the target’s current head, journalling watch_started via watch, and keeps an existing cursor as it is, journalling nothing', async () => {
      const events = await appendMany(store, B, 3);
      const head = (events[2] as StoredEvent).sequence;
      expect(await journalAnd(store, () => store.watch({ watcher: A, target: B, now: T0 + 1 }))).toEqual([{ created: true }, [viewed(A, B, started(head), [head, head, head], T0 + 1)]]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: head, material: head, touchedAt: T0 + 1 });
      await append(store, B, foreign(), T0 + 2);
      const pending = await cursorOf(store, A, B);
      expect(await journalAnd(store, () => store.watch({ watcher: A, target: B, now: T0 + 3 }))).toEqual([{ created: false }, []]);
      expect(await cursorOf(store, A, B)).toEqual(pending);
      // A session with no events: the cursor starts at 0.
      await store.watch({ watcher: A, target: C, now: T0 });
      expect(watermarks(await cursorOf(store, A, C))).toEqual({ acked: 0, notified: 0, material: 0 });
    });

    test('listCursors and readCursorJournal filter by watcher, target or both; cursors ordered by watcher then target, journal entries by position', async () => {
      await watchAll(store, [[C, B], [A, C], [A, B], [B, A]]);
      const positions = (await store.readCursorJournal()).map((entry) => entry.position);
      expect(positions).toEqual([...new Set(positions)].sort((x, y) => x - y));
      const [AB, AC, BA, CB] = [`${A} -> ${B}`, `${A} -> ${C}`, `${B} -> ${A}`, `${C} -> ${B}`];
      for (const [filter, cursors, journal] of [
        [undefined, [AB, AC, BA, CB], [CB, AC, AB, BA]],
        [{}, [AB, AC, BA, CB], [CB, AC, AB, BA]],
        [{ watcher: A }, [AB, AC], [AC, AB]],
        [{ target: B }, [AB, CB], [CB, AB]],
        [{ watcher: C, target: B }, [CB], [CB]],
        [{ watcher: A, target: B }, [AB], [AB]],
        [{ watcher: D }, [], []],
      ] as const) expect([(await store.listCursors(filter)).map(pairOf), (await store.readCursorJournal(filter)).map(pairOf)]).toEqual([cursors, journal]);
    });
  });

  describe('acknowledgeRead', () => {
    test('a read from acked to the head acknowledges the pending cursor up to the head: idle, touched, notice_read journalled', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      await append(store, B, foreign(), T0 + 1);
      const head = await appendSeq(store, B, foreign(), T0 + 2);
      const journal = await journalDuring(store, async () => {
        expect(await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: head, now: T0 + 3 })).toEqual({ acknowledged: true, acked: head });
      });
      expect(journal).toEqual([viewed(A, B, { type: 'notice_read', acked: head, notified: head }, [head, head, head], T0 + 3)]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: head, material: head, touchedAt: T0 + 3 });
      expect(await heldNotices(store)).toEqual([]);
    });

    test('a change after the read keeps one notice: acked = the head read, the reopened notice covers the rest', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const read = await appendSeq(store, B, foreign(), T0 + 1);
      const after = await appendSeq(store, B, foreign(), T0 + 2);
      const outcome = await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: read, now: T0 + 3 });
      expect(outcome).toEqual({ acknowledged: true, acked: read, reopened: noticeOf(A, B, read, after, 'reopen') });
      expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: read, notified: after, material: after });
    });

    test('a read from above acked, one ending at or below acked, or of a pair without a cursor acknowledges and journals nothing', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const first = await appendSeq(store, B, foreign(), T0 + 1);
      const head = await appendSeq(store, B, foreign(), T0 + 2);
      const before = await cursorOf(store, A, B);
      const none = await journalDuring(store, async () => {
        expect(await store.acknowledgeRead({ watcher: A, target: B, since: first, through: head, now: T0 + 3 })).toEqual({ acknowledged: false });
        expect(await store.acknowledgeRead({ watcher: A, target: B, since: seqOf(0), through: seqOf(0), now: T0 + 3 })).toEqual({ acknowledged: false });
        expect(await store.acknowledgeRead({ watcher: C, target: B, since: seqOf(0), through: head, now: T0 + 3 })).toEqual({ acknowledged: false });
      });
      expect(none).toEqual([]);
      expect(await cursorOf(store, A, B)).toEqual(before);
      expect(await cursorOf(store, C, B)).toBeUndefined();
    });
  });

  describe('unwatch', () => {
    test('removes exactly the pair’s cursor, pending or not (a spawn edge’s too), and says whether it had one; a later watch starts at the head then', async () => {
      await watchAll(store, [[A, B], [A, C], [C, B]]);
      await append(store, B, foreign(D), T0 + 1);
      expect(await store.unwatch(A, B, T0 + 2)).toEqual({ removed: true });
      expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${C}`, `${C} -> ${B}`]);
      expect(await heldNotices(store, (watcher) => watcher === A)).toEqual([]);
      expect(await store.unwatch(A, B, T0 + 3)).toEqual({ removed: false });
      expect(await store.unwatch(D, E, T0 + 3)).toEqual({ removed: false });
      const head = await appendSeq(store, B, foreign(D), T0 + 4);
      expect(await store.watch({ watcher: A, target: B, now: T0 + 5 })).toEqual({ created: true });
      expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: head, notified: head, material: head });
      // A spawn edge can be unwatched: watch_ended unwatched is journalled, and nothing once the pair has no cursor.
      const spawned = await appendSeq(store, CHILD, { kind: 'child_spawned', actorType: 'agent', actorSessionKey: A }, T0 + 6, A);
      const change = await appendSeq(store, CHILD, foreign(), T0 + 7);
      expect(await journalDuring(store, () => store.unwatch(A, CHILD, T0 + 8))).toEqual([viewed(A, CHILD, { type: 'watch_ended', reason: 'unwatched' }, [spawned, change, change], T0 + 8)]);
      expect(await journalDuring(store, () => store.unwatch(A, CHILD, T0 + 9))).toEqual([]);
      expect(await cursorOf(store, A, CHILD)).toBeUndefined();
    });
  });

  describe('resetWatcher and deleteSession', () => {
    test('resetWatcher removes exactly the watcher’s cursors and returns their pairs', async () => {
      await watchAll(store, [[A, B], [A, C], [D, A], [C, B]]);
      const removed = await store.resetWatcher(A, T0);
      expect([...removed].sort((x, y) => (x.target < y.target ? -1 : 1))).toEqual([{ watcher: A, target: B }, { watcher: A, target: C }]);
      expect((await store.listCursors()).map(pairOf)).toEqual([`${C} -> ${B}`, `${D} -> ${A}`]);
      expect(await store.resetWatcher(A, T0)).toEqual([]);
    });

    test('deleteSession removes the session’s events and every cursor where it is watcher or target; a session that never logged anything loses its cursors and gets no head', async () => {
      await watchAll(store, [[A, B], [B, C], [C, D], [D, B], [E, A]]);
      await appendMany(store, B, 3);
      const other = await appendMany(store, C, 2);
      const result = await store.deleteSession(B, T0);
      expect(result.eventsDeleted).toBe(3);
      const pairs = result.removedCursors.map((pair) => `${pair.watcher} -> ${pair.target}`).sort();
      expect(pairs).toEqual([`${A} -> ${B}`, `${B} -> ${C}`, `${D} -> ${B}`].sort());
      expect((await store.listCursors()).map(pairOf)).toEqual([`${C} -> ${D}`, `${E} -> ${A}`]);
      expect(await readAll(store, C)).toEqual(asRead(...other));
      expect(await store.deleteSession(E, T0)).toEqual({ eventsDeleted: 0, removedCursors: [{ watcher: E, target: A }] });
      expect(await store.readHeads([E])).toEqual([]);
    });
  });
}
