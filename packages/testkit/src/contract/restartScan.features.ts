// The contract of `scanPending`: the restart scan (with `raise`), held notices (without), its
// pages; and the overview of pending pairs.
import { expect } from 'expect';

import { comparePairs, isOverviewSource, isStoreError, overviewOf, type Notice, type SessionKey, type StateStore, type OverviewLimits } from '@session-state/domain';

import { heldNotices, restartScanAll, rejection, noticeOf, PROPERTY_TIMEOUT_MS, T0, key, A, B, C, D, E, foreign, request, expectAppended, append, appendSeq, watchAll, headOf, byWatcher, pairOf, watermarks, cursorOf, journalAnd, journalDuring, seqOf, viewed, type Suite } from './fixtures.js';

export function describeRestartScan(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;
  /** Watchers (of two targets each) in the paged restart-scan test: many chunks of every store's scan. */
  const SCAN_WATCHERS = 2000;
  describe('restart scan (scanPending with raise)', () => {
    test('the restart scan returns one notice per pending pair with notified below material, raises notified to material journalling notice_recovered only where it raised it, honours owns (only the owned watchers are scanned and changed), and is idempotent; held-notice reads journal nothing', async () => {
      await watchAll(store, [[A, B], [C, B], [D, A]]);
      const first = await append(store, B, foreign(D), T0 + 1);
      const second = await append(store, B, foreign(D), T0 + 2);
      const unowned = await cursorOf(store, C, B);
      expect(await journalDuring(store, () => heldNotices(store))).toEqual([]);
      const [owned, ownedJournal] = await journalAnd(store, () => restartScanAll(store, T0 + 3, (watcher) => watcher === A));
      expect(owned.map((notice) => notice.watcher)).toEqual([A]);
      const raised = second.event.sequence;
      expect(ownedJournal).toEqual([viewed(A, B, { type: 'notice_recovered', acked: seqOf(0), notified: raised }, [0, raised, raised], T0 + 3)]);
      expect(await cursorOf(store, C, B)).toEqual(unowned);
      const [scanned, journal] = await journalAnd(store, () => restartScanAll(store, T0 + 3));
      expect(journal.map((entry) => entry.pair)).toEqual([`${C} -> ${B}`]);
      const notices = [...scanned].sort(byWatcher);
      const expected = (watcher: SessionKey): Notice => noticeOf(watcher, B, 0, second.event.sequence, 'recovered');
      expect(first.event.sequence).toBeLessThan(second.event.sequence);
      expect(notices).toEqual([expected(A), expected(C)]);
      const cursors = await store.listCursors();
      expect(watermarks(cursors.find((row) => row.watcher === A))).toEqual({ acked: 0, notified: second.event.sequence, material: second.event.sequence });
      const [again, againJournal] = await journalAnd(store, () => restartScanAll(store, T0 + 3));
      expect([[...again].sort(byWatcher), againJournal]).toEqual([notices, []]);
      expect(await store.listCursors()).toEqual(cursors);
    });

    test(
      'a restart scan in pages, with cursors unwatched and targets changed between its pages, notifies every pending pair at most once and in pair order, each untouched one exactly once, and resurrects no unwatched cursor; a scan after it gives the one-pass result',
      async () => {
        const watchers = Array.from({ length: SCAN_WATCHERS }, (_, i) => key(`agent:w${String(i).padStart(5, '0')}:main`));
        for (const watcher of watchers) for (const target of [B, C]) await store.watch({ watcher, target, now: T0 });
        // Two changes on each target: every cursor is pending, notified below material.
        for (const target of [B, C]) for (const at of [T0 + 1, T0 + 2]) await append(store, target, foreign(E), at);
        const materialOnB = (await headOf(store, B)).head;

        // While the scan runs, every turn of the event loop unwatches a pair (B's and C's in
        // turn, from the far end of the pair order); C changes again part way through.
        let scanning = true;
        const unwatched = new Set<string>();
        const changes = (async () => {
          for (let turn = 0; scanning; turn += 1) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            const watcher = watchers[SCAN_WATCHERS - 1 - (turn >> 1)];
            const target = turn % 2 === 0 ? B : C;
            if (watcher === undefined) continue;
            if ((await store.unwatch(watcher, target, T0 + 4)).removed) unwatched.add(`${watcher} -> ${target}`);
            if (turn === 6) await append(store, C, foreign(E), T0 + 4);
          }
        })();
        const notices = await restartScanAll(store, T0 + 3);
        scanning = false;
        await changes;

        const pairs = notices.map((notice) => `${notice.watcher} -> ${notice.target}`);
        expect(new Set(pairs).size).toBe(pairs.length);
        expect([...notices].sort(comparePairs)).toEqual(notices);
        const untouched = watchers.flatMap((watcher) => [B, C].map((target) => `${watcher} -> ${target}`)).filter((pair) => !unwatched.has(pair));
        expect(untouched.filter((pair) => !pairs.includes(pair))).toEqual([]);
        const rows = await store.listCursors();
        expect(rows.map(pairOf).filter((pair) => unwatched.has(pair))).toEqual([]);
        const onB = rows.filter((row) => row.target === B);
        expect(onB.filter((row) => row.notified !== materialOnB || row.material !== materialOnB)).toEqual([]);
        expect(notices.filter((notice) => notice.target === B && notice.notified !== materialOnB)).toEqual([]);

        // Nothing changes during this one: one notice per pending cursor, in pair order, at material.
        const again = await restartScanAll(store, T0 + 5);
        const pending = rows.filter((row) => row.material > row.acked).sort(comparePairs);
        expect(again.map((notice) => [notice.watcher, notice.target, notice.notified, notice.reason])).toEqual(pending.map((row) => [row.watcher, row.target, row.material, 'recovered']));
        const kept = (notice: Notice): boolean => notice.target === B && !unwatched.has(`${notice.watcher} -> ${notice.target}`);
        expect(again.filter(kept)).toEqual(notices.filter(kept));
      },
      PROPERTY_TIMEOUT_MS,
    );

  });

  describe('held notices (scanPending without raise)', () => {
    /** A and D watch B and C; E changes B twice and C once: four pending pairs, B's with material past its notice. */
    async function fourPendingPairs() {
      await watchAll(store, [[A, B], [A, C], [D, B], [D, C]]);
      const firstOnB = await append(store, B, foreign(E), T0 + 1);
      const laterOnB = await append(store, B, foreign(E), T0 + 2);
      const onC = await append(store, C, foreign(E), T0 + 2);
      const held = (watcher: SessionKey, target: SessionKey, notified: Notice['notified']): Notice => noticeOf(watcher, target, 0, notified, 'signalled');
      const all = [held(A, B, firstOnB.event.sequence), held(A, C, onC.event.sequence), held(D, B, firstOnB.event.sequence), held(D, C, onC.event.sequence)];
      return { firstOnB: firstOnB.event.sequence, laterOnB: laterOnB.event.sequence, onC: onC.event.sequence, held, all };
    }

    test('answers the notices of exactly the pending pairs asked for, ordered by watcher then target, in pages of any size: every one without targets, the owned watchers’ with owns (on the targets when given), each pair once for duplicate targets, none for an empty list or targets without pending cursors; idle cursors hold none', async () => {
      const { firstOnB, onC, held, all } = await fourPendingPairs();
      await store.watch({ watcher: B, target: E, now: T0 });
      const [isA, isD] = [A, D].map((owner) => (watcher: SessionKey) => watcher === owner);
      const asked: [((watcher: SessionKey) => boolean) | undefined, SessionKey[] | undefined, Notice[]][] = [
        [undefined, undefined, all],
        [isD, [B, C], [held(D, B, firstOnB), held(D, C, onC)]],
        [isA, [C], [held(A, C, onC)]],
        [isA, undefined, [held(A, B, firstOnB), held(A, C, onC)]],
        [() => false, undefined, []],
        [undefined, [C, B, C, B, B], all],
        [undefined, [], []],
        [() => true, [], []],
        [undefined, [E, A, key('agent:nobody:main')], []],
      ];
      for (const limit of [1, 2, 500]) for (const [owns, targets, expected] of asked) expect(await heldNotices(store, owns, targets, limit)).toEqual(expected);
    });

    test('a page reads at most limit pending cursors after `after`, in pair order, whoever owns them; next names the last one read when the page is full; a raised page raises and journals only its own', async () => {
      const { all, firstOnB } = await fourPendingPairs();
      const pair = (watcher: SessionKey, target: SessionKey) => ({ watcher, target });
      expect(await store.scanPending({ limit: 2 })).toEqual({ notices: all.slice(0, 2), next: pair(A, C) });
      expect(await store.scanPending({ after: pair(A, C), limit: 2 })).toEqual({ notices: all.slice(2), next: pair(D, C) });
      expect(await store.scanPending({ after: pair(D, C), limit: 2 })).toEqual({ notices: [] });
      expect(await store.scanPending({ limit: 5 })).toEqual({ notices: all });
      expect(await store.scanPending({ after: pair(A, B), limit: 1, targets: [C] })).toEqual({ notices: all.slice(1, 2), next: pair(A, C) });
      expect(await store.scanPending({ limit: 1, owns: (watcher) => watcher === D })).toEqual({ notices: [], next: pair(A, B) });

      // A raised page raises and journals only its own cursors; a limit that is not a positive integer is refused naming scanPending.
      const before = await store.listCursors();
      for (const limit of [0, -1, 1.5, Number.NaN]) expect(await rejection(store.scanPending({ limit, raise: { now: T0 + 3 } })).then((e) => isStoreError(e) && e.operation)).toBe('scanPending');
      expect((await store.scanPending({ limit: 1, raise: { now: T0 + 3 } })).notices.map(pairOf)).toEqual([`${A} -> ${B}`]);
      expect((await store.listCursors()).filter((row) => pairOf(row) !== `${A} -> ${B}`)).toEqual(before.slice(1));
      expect((await cursorOf(store, D, B))?.notified).toBe(firstOnB);
      expect((await store.readCursorJournal()).filter((entry) => entry.event.type === 'notice_recovered').map(pairOf)).toEqual([`${A} -> ${B}`]);
      expect((await restartScanAll(store, T0 + 4, undefined, 1)).map(pairOf)).toEqual(before.map(pairOf));
    });

    test('orders notices by watcher then target, whatever the order of the targets and however many there are', async () => {
      // Many targets, most without cursors, so an adapter that splits long target lists still
      // meets the pending ones in different parts and must order the whole answer.
      const targets = Array.from({ length: 1200 }, (_, i) => key(`agent:t${i}:main`));
      const pendingTargets = [targets[1199], targets[0], targets[650]] as SessionKey[];
      for (const target of pendingTargets) {
        for (const watcher of [D, A]) await store.watch({ watcher, target, now: T0 });
      }
      const sequences = new Map<SessionKey, Notice['notified']>();
      for (const target of pendingTargets) sequences.set(target, await appendSeq(store, target, foreign(E), T0 + 1));
      // A later change on each: the notices still cover the first one.
      for (const target of pendingTargets) await append(store, target, foreign(E), T0 + 2);
      const notices = await heldNotices(store, undefined, [...targets].reverse());
      const expected = [A, D].flatMap((watcher) => [...pendingTargets].sort().map((target) => `${watcher} -> ${target} @${sequences.get(target)}`));
      expect(notices.map((notice) => `${notice.watcher} -> ${notice.target} @${notice.notified}`)).toEqual(expected);
      expect(notices.every((notice) => notice.reason === 'signalled')).toBe(true);
    });

    test('returns the notice each pending cursor holds at its FROZEN notified (the first foreign event, not material), reason signalled, and writes and touches nothing: cursors are byte-identical afterwards (touchedAt included), and a later restart scan still raises notified as before', async () => {
      const { firstOnB, laterOnB, onC, held, all } = await fourPendingPairs();
      expect(firstOnB).toBeLessThan(laterOnB);
      const before = await store.listCursors();
      expect(await heldNotices(store)).toEqual(all);
      await heldNotices(store, undefined, [B, C]);
      await heldNotices(store, (watcher) => watcher === A, [B]);
      expect(await heldNotices(store, undefined, [B])).toEqual([held(A, B, firstOnB), held(D, B, firstOnB)]);
      expect(await store.listCursors()).toEqual(before);
      // The notice an append queues, byte for byte, with the watermark its drain acknowledges (material is raised, not touched otherwise).
      const appended = await append(store, B, foreign(E), T0 + 3);
      expect(appended.notices).toEqual([{ ...held(A, B, firstOnB), reason: 'repeat' }, { ...held(D, B, firstOnB), reason: 'repeat' }]);
      const laterStill = appended.event.sequence;

      // The restart scan is unchanged by any number of re-reads before it.
      const recovered = (watcher: SessionKey, target: SessionKey, notified: Notice['notified']): Notice => ({ ...held(watcher, target, notified), reason: 'recovered' });
      expect(await restartScanAll(store, T0 + 5)).toEqual([recovered(A, B, laterStill), recovered(A, C, onC), recovered(D, B, laterStill), recovered(D, C, onC)]);
      const after = await store.listCursors();
      // B's cursors were raised to material and touched; C's (notified = material already) were not written.
      expect(after.filter((row) => row.target === B).map((row) => [pairOf(row), watermarks(row), row.touchedAt])).toEqual([
        [`${A} -> ${B}`, { acked: 0, notified: laterStill, material: laterStill }, T0 + 5],
        [`${D} -> ${B}`, { acked: 0, notified: laterStill, material: laterStill }, T0 + 5],
      ]);
      expect(after.filter((row) => row.target === C)).toEqual(before.filter((row) => row.target === C));
      // After the scan the held notice is the recovered one.
      expect(await heldNotices(store, undefined, [B])).toEqual([held(A, B, laterStill), held(D, B, laterStill)]);
    });

    test('draining the held notice acknowledges only up to its notified and reopens once for the rest; then it returns the reopened notice’s watermark (still frozen when more changes follow)', async () => {
      const { firstOnB, laterOnB } = await fourPendingPairs();
      const [notice] = await heldNotices(store, (watcher) => watcher === A, [B]);
      expect(notice?.notified).toBe(firstOnB);
      const [outcome] = await store.drain({ watcher: A, acks: [{ target: B, notified: notice?.notified ?? firstOnB }], now: T0 + 3 });
      expect(outcome).toMatchObject({ target: B, result: 'acked', acked: firstOnB, reopened: { acked: firstOnB, notified: laterOnB, reason: 'reopen' } });
      if (outcome?.result !== 'acked' || outcome.reopened === undefined) throw new Error(`expected a reopen, got ${JSON.stringify(outcome)}`);
      const reopened = outcome.reopened;
      expect(await heldNotices(store, (watcher) => watcher === A, [B])).toEqual([{ ...reopened, reason: 'signalled' }]);
      await append(store, B, foreign(E), T0 + 4);
      expect(await heldNotices(store, (watcher) => watcher === A, [B])).toEqual([noticeOf(A, B, firstOnB, laterOnB, 'signalled')]);
    });
  });

  describe('readOverview', () => {
    /** Six cursors (three pending, each holding a notice), five sessions with heads, one deleted (a tombstone, pruned). */
    const F = key('agent:f:main');
    async function scene(store: StateStore): Promise<void> {
      await watchAll(store, [[A, B], [A, C], [D, B], [D, C], [B, E], [E, A]]);
      const outcomes = await store.append([...[B, C, B, E, F, F].map((target) => request(target, foreign(E)))]);
      const onC = expectAppended(outcomes[1]);
      await store.drain({ watcher: A, acks: [{ target: C, notified: onC.event.sequence }], now: T0 + 1 });
      await store.deleteSession(F, T0 + 2);
    }

    test('gives the counts over every row (idle and acknowledged cursors not pending), the first heads by key and at most the limit of cursors, pending ones first: as overviewOf over readHeads and listCursors, for any limits; refuses limits that are not non-negative integers, naming the field, and writes nothing', async () => {
      if (!isOverviewSource(store)) throw new Error('every store of the suite offers readOverview');
      await scene(store);
      const heads = await store.readHeads();
      const cursors = await store.listCursors();
      const whole = await store.readOverview({ heads: 100, cursors: 100 });
      expect(whole.counts).toEqual({ sessions: 4, cursors: 6, pendingPairs: 4, pendingNotices: 4, highestHead: Math.max(...heads.map((row) => row.head)), prunedSessions: 1 });
      expect(whole.cursors.slice(0, 4).map((row) => `${row.watcher} -> ${row.target}`)).toEqual([`${A} -> ${B}`, `${B} -> ${E}`, `${D} -> ${B}`, `${D} -> ${C}`]);
      for (const limits of [{ heads: 0, cursors: 0 }, { heads: 1, cursors: 1 }, { heads: 2, cursors: 5 }, { heads: 100, cursors: 100 }]) {
        expect(await store.readOverview(limits)).toEqual(overviewOf(heads, cursors, limits));
      }
      const before = await store.listCursors();
      for (const [limits, field] of [[{ heads: -1, cursors: 1 }, 'limits.heads'], [{ heads: 1, cursors: 1.5 }, 'limits.cursors'], [{ heads: 1 }, 'limits.cursors'], [undefined, 'limits.heads']] as const) {
        const failure: unknown = await store.readOverview(limits as unknown as OverviewLimits).then(() => 'answered', (e: unknown) => e);
        expect(isStoreError(failure) && failure.operation === 'readOverview' && failure.message.includes(field)).toBe(true);
      }
      expect(await store.listCursors()).toEqual(before);
    });
  });
}
