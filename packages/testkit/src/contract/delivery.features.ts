// The contract of delivery: drain (alone or heading appends), and take, a drain that leases the notices instead of
// acknowledging them until the watcher confirms (a drain of what it took).
import { expect } from 'expect';

import type { AppendRequest, DrainAck, StateStore, StoredEvent } from '@session-state/domain';

import { onFreshStore, noticeOf, viewed, T0, key, A, B, C, D, E, foreign, request, expectAppended, append, appendSeq, watchAll, headOf, watermarks, cursorOf, journalAnd, journalDuring, restartScanAll, type Suite } from './fixtures.js';

export function describeDelivery(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;
  describe('drain', () => {
    test('acking while newer material exists reopens exactly one notice with the new acked (journalled notice_reopened); acking the pending notice then makes the cursor idle at notified and touches it (journalled notice_acknowledged)', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const first = await appendSeq(store, B, foreign(), T0 + 1);
      const later = await appendSeq(store, B, foreign(), T0 + 2);
      const [reopen, reopenJournal] = await journalAnd(store, () => store.drain({ watcher: A, acks: [{ target: B, notified: first }], now: T0 + 3 }));
      expect(reopen).toEqual([{ target: B, result: 'acked', acked: first, reopened: noticeOf(A, B, first, later, 'reopen') }]);
      expect(watermarks(await cursorOf(store, A, B))).toEqual({ acked: first, notified: later, material: later });
      expect(reopenJournal).toEqual([viewed(A, B, { type: 'notice_reopened', acked: first, notified: later }, [first, later, later], T0 + 3)]);
      const [acked, ackJournal] = await journalAnd(store, () => store.drain({ watcher: A, acks: [{ target: B, notified: later }], now: T0 + 4 }));
      expect(acked).toEqual([{ target: B, result: 'acked', acked: later }]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked: later, notified: later, material: later, touchedAt: T0 + 4 });
      expect(ackJournal).toEqual([viewed(A, B, { type: 'notice_acknowledged', acked: later }, [later, later, later], T0 + 4)]);
    });

    test('a stale compare-and-swap acknowledges nothing and re-offers what is pending; acks for an idle cursor or a missing pair are stale with nothing pending; the others of the call still ack', async () => {
      await watchAll(store, [[A, B], [A, C], [A, E]]);
      const change = await append(store, C, foreign(D), T0 + 1);
      const onE = await append(store, E, foreign(D), T0 + 1);
      const before = await cursorOf(store, A, E);
      const [wrong, one] = [(onE.event.sequence + 1) as StoredEvent['sequence'], 1 as StoredEvent['sequence']];
      const stale = await journalDuring(store, () => store.drain({ watcher: A, acks: [{ target: E, notified: wrong }, { target: B, notified: one }, { target: D, notified: one }], now: T0 + 2 }));
      expect(stale).toEqual([]);
      const outcomes = await store.drain({ watcher: A, acks: [{ target: E, notified: wrong }, { target: B, notified: one }, { target: D, notified: one }, { target: C, notified: change.event.sequence }], now: T0 + 2 });
      expect(outcomes).toEqual([{ target: E, result: 'stale', pending: noticeOf(A, E, 0, onE.event.sequence, 'repeat') }, { target: B, result: 'stale' }, { target: D, result: 'stale' }, { target: C, result: 'acked', acked: change.event.sequence }]);
      expect(await cursorOf(store, A, E)).toEqual(before);
    });

    /** A watches B and C, and each has a pending notice: the acks of both. */
    const pendingAcks = async (on: StateStore): Promise<DrainAck[]> => {
      await watchAll(on, [[A, B], [A, C]]);
      return (await on.append([request(B, foreign(D), T0 + 1), request(C, foreign(D), T0 + 1)])).flatMap((o) => (o.type === 'appended' ? o.notices.map((n) => ({ target: key(n.target), notified: n.notified })) : []));
    };
    const changes = (): AppendRequest[] => [request(B, foreign(D), T0 + 3), request(C, foreign(D), T0 + 4)];

    test('a drain heading an append batch leaves the outcomes, cursors and journal of the drain and then the append called in turn', async () => {
      const acks = await pendingAcks(store);
      const outcomes = await store.append([{ type: 'drain', watcher: A, acks, now: T0 + 2 }, ...changes()]);
      await onFreshStore(s.factory, async (apart) => {
        expect(await pendingAcks(apart)).toEqual(acks);
        expect(outcomes).toEqual([{ type: 'drained', outcomes: await apart.drain({ watcher: A, acks: acks, now: T0 + 2 }) }, ...(await apart.append(changes()))]);
        expect([await store.listCursors(), await store.readCursorJournal()]).toEqual([await apart.listCursors(), await apart.readCursorJournal()]);
      });
      // The drain ran first: both cursors were acknowledged, so the appends raised new first notices.
      expect(outcomes.map((o) => (o.type === 'appended' ? o.notices.map((n) => n.reason) : o.type))).toEqual(['drained', ['first'], ['first']]);
    });

    test('a heading drain, or an append after it, that fails on its own fails alone: `failed`, naming its operation; the rest commit', async () => {
      const acks = await pendingAcks(store);
      const before = await store.listCursors();
      const failedDrain = await store.append([{ type: 'drain', watcher: A, acks, now: Number.NaN }, ...changes()]);
      expect(failedDrain.map((o) => (o.type === 'failed' ? o.error.operation : o.type))).toEqual(['drain', 'appended', 'appended']);
      // The notices stay pending: acked and notified as before, material raised.
      const after = await store.listCursors();
      expect(after.map((c) => [c.target, c.acked, c.notified])).toEqual(before.map((c) => [c.target, c.acked, c.notified]));
      expect(after.every((c, i) => c.material > (before[i]?.material ?? Infinity))).toBe(true);
      const failedAppend = await store.append([{ type: 'drain', watcher: A, acks, now: T0 + 5 }, request(B, foreign(D), T0 + 6), request(C, foreign(D), Number.NaN)]);
      expect(failedAppend.map((o) => (o.type === 'failed' ? o.error.operation : o.type))).toEqual(['drained', 'appended', 'append']);
      // Both acknowledged, and reopened for the changes after them; only B's last change committed.
      const [b, c] = [await cursorOf(store, A, B), await cursorOf(store, A, C)];
      expect([b?.acked, b?.material, c?.acked, c?.material]).toEqual([acks[0]?.notified, expectAppended(failedAppend[1]).event.sequence, acks[1]?.notified, after[1]?.material]);
    });
  });


  describe('take (drain with takenUntil)', () => {
    /** A watches B with one pending notice at `at`, acked at `acked`. */
    const pendingOnB = async (): Promise<{ acked: StoredEvent['sequence']; at: StoredEvent['sequence'] }> => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const acked = (await headOf(store, B)).head;
      return { acked, at: await appendSeq(store, B, foreign(D), T0 + 1) };
    };
    const take = (notified: StoredEvent['sequence'], now: number, takenUntil: number) => store.drain({ watcher: A, acks: [{ target: B, notified }], now, takenUntil });

    test('a take leases the notice without acknowledging it (journalled notice_taken, the cursor taken until then); while the lease runs a take hands out nothing and journals nothing', async () => {
      const { acked, at } = await pendingOnB();
      const [taken, journal] = await journalAnd(store, () => take(at, T0 + 2, T0 + 100));
      expect(taken).toEqual([{ target: B, result: 'taken', notice: { ...noticeOf(A, B, acked, at, 'taken'), takenUntil: T0 + 100 } }]);
      expect(journal).toEqual([viewed(A, B, { type: 'notice_taken', acked, notified: at, material: at, until: T0 + 100 }, [acked, at, at], T0 + 2)]);
      expect(await cursorOf(store, A, B)).toEqual({ watcher: A, target: B, acked, notified: at, material: at, touchedAt: T0 + 2, takenUntil: T0 + 100 });
      const [again, none] = await journalAnd(store, () => take(at, T0 + 99, T0 + 200));
      expect(again).toEqual([{ target: B, result: 'stale', pending: { ...noticeOf(A, B, acked, at, 'repeat'), takenUntil: T0 + 100 } }]);
      expect(none).toEqual([]);
    });

    test('once the lease is over a take journals lease_expired and takes it again; a change meanwhile raises material and keeps the lease; the restart scan ends a lease', async () => {
      const { acked, at } = await pendingOnB();
      await take(at, T0 + 2, T0 + 100);
      const later = await appendSeq(store, B, foreign(D), T0 + 3);
      expect(await cursorOf(store, A, B)).toMatchObject({ material: later, takenUntil: T0 + 100 });
      const [retaken, journal] = await journalAnd(store, () => take(at, T0 + 100, T0 + 300));
      expect(retaken).toEqual([{ target: B, result: 'taken', notice: { ...noticeOf(A, B, acked, at, 'taken'), takenUntil: T0 + 300 } }]);
      expect(journal.map((entry) => entry.event.type)).toEqual(['lease_expired', 'notice_taken']);
      const [scanned] = await journalAnd(store, () => restartScanAll(store, T0 + 4));
      expect(scanned).toEqual([noticeOf(A, B, acked, later, 'recovered')]);
      expect((await cursorOf(store, A, B))?.takenUntil).toBeUndefined();
    });

    test('a confirm (a drain of the taken notice) acknowledges it whatever its lease; after a read to the head it is stale and names nothing', async () => {
      const { at } = await pendingOnB();
      await take(at, T0 + 2, T0 + 100);
      expect(await store.drain({ watcher: A, acks: [{ target: B, notified: at }], now: T0 + 500 })).toEqual([{ target: B, result: 'acked', acked: at }]);
      expect((await cursorOf(store, A, B))?.takenUntil).toBeUndefined();
      const next = await appendSeq(store, B, foreign(D), T0 + 501);
      await take(next, T0 + 502, T0 + 600);
      expect(await store.acknowledgeRead({ watcher: A, target: B, since: at, through: next, now: T0 + 503 })).toEqual({ acknowledged: true, acked: next });
      expect(await store.drain({ watcher: A, acks: [{ target: B, notified: next }], now: T0 + 504 })).toEqual([{ target: B, result: 'stale' }]);
    });
  });
}
