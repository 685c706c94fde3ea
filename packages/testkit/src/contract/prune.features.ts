// The contract of retention: age and row-cap pruning in bounded batches, cursor expiry,
// previewPrune, and clock readings with a fraction of a millisecond.
import { expect } from 'expect';

import { historyGap, isStoreMaintenance } from '@session-state/domain';

import { restartScanAll, T0, MINUTE, DAY, A, B, C, D, CHILD, foreign, request, expectAppended, append, appendMany, watchAll, headOf, readAll, asRead, pairOf, cursorOf, pruneAll, seqOf, type Suite } from './fixtures.js';

export function describePrune(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;
  describe('prune', () => {
    test('age pruning deletes events appended before now - maxAgeMs and raises the watermark to the highest deleted; an event exactly maxAgeMs old is kept', async () => {
      const old1 = await append(store, B, {}, T0);
      const old2 = await append(store, B, {}, T0 + 10 * MINUTE);
      const exact = await append(store, B, {}, T0 + 15 * MINUTE);
      const fresh = await append(store, B, {}, T0 + 20 * MINUTE);
      const result = await pruneAll(store, T0 + 25 * MINUTE, 10 * MINUTE, 1000);
      expect(result.eventsDeleted).toBe(2);
      expect(await readAll(store, B)).toEqual(asRead(exact.event, fresh.event));
      expect(await headOf(store, B)).toEqual({ head: fresh.event.sequence, pruneWatermark: old2.event.sequence });
      expect(old1.event.sequence).toBeLessThan(old2.event.sequence);
    });

    test('row-count pruning deletes the earliest-appended events across all sessions', async () => {
      const outcomes = await store.append([request(B), request(C), request(B), request(C), request(B)]);
      const events = outcomes.map((outcome) => expectAppended(outcome).event);
      const result = await pruneAll(store, T0, DAY, 2);
      expect(result.eventsDeleted).toBe(3);
      const kept = [...(await readAll(store, B)), ...(await readAll(store, C))].sort((x, y) => x.sequence - y.sequence);
      expect(kept).toEqual(asRead(...events.slice(3)));
      expect((await headOf(store, B)).pruneWatermark).toBe(events[2]?.sequence);
      expect((await headOf(store, C)).pruneWatermark).toBe(events[1]?.sequence);
    });

    test('a clock moving backwards never prunes fresh rows and never lowers a watermark', async () => {
      const early = await append(store, B, {}, T0);
      const fresh = await append(store, B, {}, T0 + 2 * DAY);
      await pruneAll(store, T0 + 2 * DAY, DAY, 1000);
      const afterForward = await headOf(store, B);
      expect(afterForward.pruneWatermark).toBe(early.event.sequence);

      // The clock jumps back: an append stamped earlier than a retained one, then prunes at the earlier time.
      const stampedBack = await append(store, B, {}, T0 + DAY + MINUTE);
      expect((await pruneAll(store, T0 + DAY, DAY, 1000)).eventsDeleted).toBe(0);
      expect(await readAll(store, B)).toEqual(asRead(fresh.event, stampedBack.event));
      expect(await headOf(store, B)).toEqual({ head: stampedBack.event.sequence, pruneWatermark: afterForward.pruneWatermark });

      // Forward again: only the event older than the cutoff goes, even though its sequence is higher.
      await pruneAll(store, T0 + 2 * DAY + 2 * MINUTE, DAY, 1000);
      expect(await readAll(store, B)).toEqual(asRead(fresh.event));
      expect((await headOf(store, B)).pruneWatermark).toBe(stampedBack.event.sequence);
      const page = await store.readChanges(B, early.event.sequence, 200);
      expect(historyGap(page.head, early.event.sequence)).toBe(true);

      // The row cap now removes the lower-sequence survivor: the watermark must not fall to it.
      await pruneAll(store, T0 + 2 * DAY + 2 * MINUTE, DAY, 0);
      expect(await readAll(store, B)).toEqual([]);
      expect(await headOf(store, B)).toEqual({ head: stampedBack.event.sequence, pruneWatermark: stampedBack.event.sequence });
    });

    test('each call deletes at most batchSize events, for the row cap and for age alike, and done ends the loop when nothing is left', async () => {
      for (const [count, now, maxRows, batchSize] of [[25, T0, 0, 10], [7, T0 + 2 * DAY, 1000, 3]] as const) {
        await appendMany(store, B, count, T0);
        expect(await store.prune({ now, maxAgeMs: DAY, maxRows, batchSize })).toMatchObject({ eventsDeleted: batchSize, done: false });
        const rest = await pruneAll(store, now, DAY, maxRows, batchSize);
        expect({ eventsDeleted: rest.eventsDeleted, severalCalls: rest.calls >= 2, left: await readAll(store, B) }).toEqual({ eventsDeleted: count - batchSize, severalCalls: true, left: [] });
        expect(await store.prune({ now, maxAgeMs: DAY, maxRows, batchSize })).toMatchObject({ eventsDeleted: 0, expiredCursors: [], done: true });
      }
    });

    test('cursors not touched within maxAgeMs expire and are returned; touched ones stay, and expire in a later prune once idle beyond the limit, with no write between them', async () => {
      await watchAll(store, [[A, B], [C, B]]);
      await store.watch({ watcher: D, target: B, now: T0 + 50 * MINUTE });
      // A foreign change touches both cursors on B except the one whose watcher caused it.
      await append(store, B, foreign(C), T0 + 40 * MINUTE);
      const result = await pruneAll(store, T0 + 60 * MINUTE, 30 * MINUTE, 1000);
      expect(result.expired).toEqual([`${C} -> ${B}`]);
      expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${B}`, `${D} -> ${B}`]);
      expect((await pruneAll(store, T0 + 75 * MINUTE, 30 * MINUTE, 1000)).expired).toEqual([`${A} -> ${B}`, `${D} -> ${B}`]);
    });

    test('previewPrune counts what prune to completion then deletes and expires, and writes nothing', async () => {
      if (!isStoreMaintenance(store)) throw new Error('every store of the suite offers previewPrune');
      await store.watch({ watcher: A, target: B, now: T0 });
      await store.watch({ watcher: C, target: B, now: T0 + 50 * MINUTE });
      for (const at of [T0, T0 + 10 * MINUTE, T0 + 40 * MINUTE, T0 + 45 * MINUTE, T0 + 50 * MINUTE]) await append(store, D, foreign(), at);
      const request = { now: T0 + 60 * MINUTE, maxAgeMs: 30 * MINUTE, cursorMaxAgeMs: 20 * MINUTE, maxRows: 2, batchSize: 2 };
      const heads = await store.readHeads();
      const cursors = await store.listCursors();
      // Two aged events, then one of the three fresh ones beyond the 2-row cap; A's cursor is idle.
      expect(await store.previewPrune(request)).toEqual({ eventsToDelete: 3, cursorsToExpire: 1 });
      expect(await store.readHeads()).toEqual(heads);
      expect(await store.listCursors()).toEqual(cursors);
      const run = await pruneAll(store, request.now, request.maxAgeMs, request.maxRows, request.batchSize, request.cursorMaxAgeMs);
      expect({ eventsDeleted: run.eventsDeleted, cursorsExpired: run.expired.length }).toEqual({ eventsDeleted: 3, cursorsExpired: 1 });
      expect(await store.previewPrune(request)).toEqual({ eventsToDelete: 0, cursorsToExpire: 0 });
    });

    test('cursorMaxAgeMs governs cursors alone: a pending cursor older than maxAgeMs but within it stays while its events go', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      await append(store, B, foreign(), T0 + 10 * MINUTE); // A's cursor is pending, touched at +10
      const prune = (cursorMaxAgeMs: number) => store.prune({ now: T0 + 60 * MINUTE, maxAgeMs: 30 * MINUTE, cursorMaxAgeMs, maxRows: 1000, batchSize: 1000 });
      expect(await prune(2 * 60 * MINUTE)).toMatchObject({ eventsDeleted: 1, expiredCursors: [], done: true });
      expect((await store.listCursors()).map(pairOf)).toEqual([`${A} -> ${B}`]);
      // Its own, shorter limit expires it (events and cursors age apart).
      expect(await prune(40 * MINUTE)).toMatchObject({ eventsDeleted: 0, expiredCursors: [{ watcher: A, target: B }], done: true });
      expect(await store.listCursors()).toEqual([]);
    });
  });

  // The clock port may answer with a fraction of a millisecond (performance.timeOrigin +
  // performance.now()). Every store keeps and compares clock readings as whole milliseconds,
  // the reading floored, so such a clock behaves the same on every store.
  describe('fractional clock readings', () => {
    const frac = (ms: number): number => ms + 0.75;

    test('an append at a fractional time is stored, returned and read back at the floored millisecond; it, a drain and the restart scan touch cursors at the floored millisecond', async () => {
      for (const watcher of [A, D]) await store.watch({ watcher, target: B, now: frac(T0) });
      const outcomes = await store.append([request(B, foreign(), frac(T0 + 1)), request(CHILD, {}, frac(T0 + 2), A)]);
      const [change, spawned] = outcomes.map(expectAppended);
      expect(change?.event).toMatchObject({ appendedAt: T0 + 1, occurredAt: new Date(T0 + 1).toISOString() });
      expect(spawned?.event.appendedAt).toBe(T0 + 2);
      expect(await readAll(store, B)).toEqual(asRead(change?.event));
      expect(await readAll(store, CHILD)).toEqual(asRead(spawned?.event));
      expect((await store.listCursors()).map((row) => [pairOf(row), row.touchedAt])).toEqual([[`${A} -> ${CHILD}`, T0 + 2], [`${A} -> ${B}`, T0 + 1], [`${D} -> ${B}`, T0 + 1]]);
      await append(store, B, foreign(), T0 + 2);
      expect(await store.drain({ watcher: A, acks: [{ target: B, notified: change?.event.sequence ?? seqOf(0) }], now: frac(T0 + 3) })).toMatchObject([{ target: B, result: 'acked' }]);
      expect((await cursorOf(store, A, B))?.touchedAt).toBe(T0 + 3);
      // D's cursor is the one the restart scan moves (its notified rises to the newer material).
      expect((await restartScanAll(store, frac(T0 + 4))).length).toBe(2);
      expect((await cursorOf(store, D, B))?.touchedAt).toBe(T0 + 4);
    });

    test('prune at a fractional now measures ages in whole milliseconds: exactly maxAgeMs old is kept', async () => {
      const event = await append(store, B, {}, T0 + 0.25);
      await store.watch({ watcher: A, target: B, now: T0 + 0.25 });
      // floor(now) - maxAgeMs = T0 = floor(T0 + 0.25): the event and the cursor are exactly maxAgeMs old.
      expect(await pruneAll(store, frac(T0 + 10 * MINUTE), 10 * MINUTE, 1000)).toMatchObject({ eventsDeleted: 0, expired: [] });
      expect(await readAll(store, B)).toEqual(asRead(event.event));
      // One whole millisecond later both are older than maxAgeMs.
      expect(await pruneAll(store, frac(T0 + 10 * MINUTE + 1), 10 * MINUTE, 1000)).toMatchObject({ eventsDeleted: 1, expired: [`${A} -> ${B}`] });
      expect(await readAll(store, B)).toEqual([]);
    });
  });
}
