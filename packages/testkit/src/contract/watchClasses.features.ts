// The contract of watch classes and producer-named watchers: an ambient watch's cursor and journal carry its class
// through every read, reopen and restart scan, an explicit watch promotes it, and a record's named watchers get a cursor.
import { expect } from 'expect';

import type { CursorJournalEntry, SessionKey } from '@session-state/domain';

import { byWatcher, heldNotices, noticeOf, restartScanAll, replayMismatch, liveRow, T0, A, B, C, D, CHILD, foreign, append, appendSeq, cursorOf, journalAnd, request, type Suite } from './fixtures.js';

/** A journal entry as these tests compare it: its event and whether the cursor is ambient after it. */
const classed = (entry: CursorJournalEntry) => [entry.event, entry.ambient === true];

export function describeWatchClasses(s: Suite): void {
  const { describe, test } = s.runner;
  const { store, reopened } = s;
  const journalOf = async (watcher: SessionKey, target: SessionKey) => (await store.readCursorJournal({ watcher, target })).map(classed);

  describe('watch classes', () => {
    test('an ambient watch starts at the target’s head (watch_started via ambient); its notices are marked ambient when raised, held, reopened and after a restart scan, and the class survives a reopen', async () => {
      const head = await appendSeq(store, B, foreign(), T0);
      expect(await store.watch({ watcher: A, target: B, now: T0 + 1, ambient: true })).toEqual({ created: true });
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: head, material: head, touchedAt: T0 + 1, ambient: true });
      expect(await journalOf(A, B)).toEqual([[{ type: 'watch_started', via: 'ambient', at: head }, true]]);
      await store.watch({ watcher: C, target: B, now: T0 + 1 });
      const first = await append(store, B, foreign(D), T0 + 2);
      expect([...first.notices].sort(byWatcher)).toEqual([{ ...noticeOf(A, B, head, first.event.sequence, 'first'), ambient: true }, noticeOf(C, B, head, first.event.sequence, 'first')]);
      const later = await appendSeq(store, B, foreign(D), T0 + 3);
      expect(await heldNotices(store)).toEqual([{ ...noticeOf(A, B, head, first.event.sequence, 'signalled'), ambient: true }, noticeOf(C, B, head, first.event.sequence, 'signalled')]);
      const [drained] = await store.drain({ watcher: A, acks: [{ target: B, notified: first.event.sequence }], now: T0 + 4 });
      expect(drained).toEqual({ target: B, result: 'acked', acked: first.event.sequence, reopened: { ...noticeOf(A, B, first.event.sequence, later, 'reopen'), ambient: true } });
      await reopened();
      expect((await cursorOf(store, A, B))?.ambient).toBe(true);
      expect(await restartScanAll(store, T0 + 5)).toEqual([{ ...noticeOf(A, B, first.event.sequence, later, 'recovered'), ambient: true }, noticeOf(C, B, head, later, 'recovered')]);
      expect(await replayMismatch(store, await liveRow(store, A, B))).toBeUndefined();
    });

    test('an explicit watch promotes an ambient cursor (watch_promoted, watermarks and notice kept, created false); its later notices are not ambient, and a later ambient watch never downgrades it', async () => {
      await store.watch({ watcher: A, target: B, now: T0, ambient: true });
      const change = await appendSeq(store, B, foreign(), T0 + 1);
      const [answer, promoted] = await journalAnd(store, () => store.watch({ watcher: A, target: B, now: T0 + 2 }));
      expect(answer).toEqual({ created: false });
      expect(promoted).toEqual([{ pair: `${A} -> ${B}`, event: { type: 'watch_promoted' }, after: [0, change, change], at: T0 + 2 }]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: 0, notified: change, material: change, touchedAt: T0 + 2 });
      expect(await heldNotices(store)).toEqual([noticeOf(A, B, 0, change, 'signalled')]);
      expect(await journalAnd(store, () => store.watch({ watcher: A, target: B, now: T0 + 3, ambient: true }))).toEqual([{ created: false }, []]);
      expect((await cursorOf(store, A, B))?.ambient).toBeUndefined();
      expect(await journalOf(A, B)).toEqual([[{ type: 'watch_started', via: 'ambient', at: 0 }, true], [{ type: 'notice_raised', acked: 0, notified: change }, true], [{ type: 'watch_promoted' }, false]]);
      expect(await replayMismatch(store, await liveRow(store, A, B))).toBeUndefined();
    });

    test('an ambient watch of a spawn or explicit cursor keeps it as it is; a spawn edge replaces an ambient cursor with a spawn cursor', async () => {
      const spawn = { kind: 'child_spawned' as const, actorType: 'agent' as const, actorSessionKey: A };
      await append(store, CHILD, spawn, T0, A);
      await store.watch({ watcher: C, target: B, now: T0 });
      const before = await store.listCursors();
      for (const [watcher, target] of [[A, CHILD], [C, B]] as const) {
        expect(await journalAnd(store, () => store.watch({ watcher, target, now: T0 + 1, ambient: true }))).toEqual([{ created: false }, []]);
      }
      expect(await store.listCursors()).toEqual(before);
      await store.watch({ watcher: D, target: CHILD, now: T0 + 2, ambient: true });
      const seeded = await appendSeq(store, CHILD, { ...spawn, actorSessionKey: D }, T0 + 3, D);
      expect(await cursorOf(store, D, CHILD)).toEqual({ watcher: D, target: CHILD, acked: seeded, notified: seeded, material: seeded, touchedAt: T0 + 3 });
      expect((await journalOf(D, CHILD)).slice(1)).toEqual([[{ type: 'watch_ended', reason: 'replaced' }, true], [{ type: 'watch_started', via: 'spawn', at: seeded }, false]]);
    });
  });

  describe('producer-named watchers', () => {
    test('a watcher a record names that has no cursor gets an explicit one at the head before the event, in the same append: watch_started then notice_raised, and the event’s notice', async () => {
      const head = await appendSeq(store, B, foreign(), T0);
      const [outcome, journal] = await journalAnd(store, () => append(store, B, { ...foreign(D), watchers: [A] }, T0 + 1));
      const at = outcome.event.sequence;
      expect(outcome.notices).toEqual([noticeOf(A, B, head, at, 'first')]);
      expect(journal).toEqual([
        { pair: `${A} -> ${B}`, event: { type: 'watch_started', via: 'watch', at: head }, after: [head, head, head], at: T0 + 1 },
        { pair: `${A} -> ${B}`, event: { type: 'notice_raised', acked: head, notified: at }, after: [head, at, at], at: T0 + 1 },
      ]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: head, notified: at, material: at, touchedAt: T0 + 1 });
      expect(await replayMismatch(store, await liveRow(store, A, B))).toBeUndefined();
    });

    test('a named watcher that already has a cursor (an ambient one stays ambient) is moved as any watcher; one the event does not notify (its actor, a log-only kind), the target and keys that are not agent-qualified get none', async () => {
      await store.watch({ watcher: A, target: B, now: T0, ambient: true });
      const first = await append(store, B, { ...foreign(D), watchers: [A, A, B, D, 'global', 'cron:nightly'] }, T0 + 1);
      expect(first.notices).toEqual([{ ...noticeOf(A, B, 0, first.event.sequence, 'first'), ambient: true }]);
      await append(store, B, { kind: 'run_completed', actorType: 'system', watchers: [C] }, T0 + 2);
      expect((await store.listCursors()).map((row) => [row.watcher, row.target, row.ambient])).toEqual([[A, B, true]]);
    });

    test('a record with onlyIfWatched naming a watcher it notifies is written (the session is watched by it); a duplicate of its dedupe key touches no cursor', async () => {
      const named = { ...foreign(D), onlyIfWatched: true, dedupeKey: 'named-1' };
      const [written] = await store.append([request(B, { ...named, watchers: [A] }, T0)]);
      expect(written?.type === 'appended' && written.notices.map((notice) => notice.watcher)).toEqual([A]);
      const [duplicate] = await store.append([request(B, { ...named, watchers: [C] }, T0 + 1)]);
      expect(duplicate?.type).toBe('duplicate');
      expect((await store.listCursors()).map((row) => row.watcher)).toEqual([A]);
      expect(await store.append([request(C, { ...foreign(D), onlyIfWatched: true, watchers: [D] }, T0)])).toEqual([{ type: 'skipped', reason: 'unwatched' }]);
    });
  });
}
