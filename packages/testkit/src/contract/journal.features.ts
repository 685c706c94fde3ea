// The contract of the cursor journal: what each operation journals, its retention, and its reads.
import { expect } from 'expect';

import { type SessionKey } from '@session-state/domain';

import { heldNotices, viewed, T0, MINUTE, DAY, key, A, B, C, D, E, foreign, append, appendSeq, watchAll, readAll, seqOf, pruneAll, journalDuring, journalTypes, replayMismatch, liveRow, type Suite } from './fixtures.js';

export function describeJournal(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;
  describe('cursor journal', () => {
    test('removals end each removed watch with its reason: reset, deleted (as watcher or target), expired', async () => {
      await watchAll(store, [[A, B], [A, C], [B, C], [C, D]]);
      await store.watch({ watcher: D, target: E, now: T0 + 50 * MINUTE });
      const ended = (watcher: SessionKey, target: SessionKey, reason: string, at: number) => ({ pair: `${watcher} -> ${target}`, event: { type: 'watch_ended', reason }, after: [0, 0, 0], at });
      expect(await journalDuring(store, () => store.resetWatcher(A, T0 + 1))).toEqual([ended(A, B, 'reset', T0 + 1), ended(A, C, 'reset', T0 + 1)]);
      expect(await journalDuring(store, () => store.deleteSession(C, T0 + 2))).toEqual([ended(B, C, 'deleted', T0 + 2), ended(C, D, 'deleted', T0 + 2)]);
      expect(await journalDuring(store, () => pruneAll(store, T0 + 60 * MINUTE, 30 * MINUTE, 1000))).toEqual([]);
      await store.watch({ watcher: E, target: D, now: T0 + 10 * MINUTE });
      expect(
        (await journalDuring(store, () => pruneAll(store, T0 + 90 * MINUTE, 30 * MINUTE, 1000))).filter((entry) => entry.event.type === 'watch_ended'),
      ).toEqual([ended(D, E, 'expired', T0 + 90 * MINUTE), ended(E, D, 'expired', T0 + 90 * MINUTE)]);
    });

    test('a prune that removes the change which set a pending cursor’s material journals material_kept, and replay still equals the row', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const first = await appendSeq(store, B, foreign(), T0 + 1);
      const later = await appendSeq(store, B, foreign(), T0 + 2);
      await append(store, C, {}, T0 + 3);
      const kept = await journalDuring(store, () => pruneAll(store, T0 + 3, DAY, 1));
      expect(kept).toEqual([viewed(A, B, { type: 'material_kept', material: later }, [0, first, later], T0 + 3)]);
      expect(await readAll(store, B)).toEqual([]);
      expect(await replayMismatch(store, await liveRow(store, A, B))).toBeUndefined();
      // Pruned again: nothing new to keep.
      await append(store, C, {}, T0 + 4);
      expect(await journalDuring(store, () => pruneAll(store, T0 + 4, DAY, 1))).toEqual([]);
    });

    test('retention ages and caps the journal with the log but keeps the latest entry of every live pair', async () => {
      await watchAll(store, [[A, B], [C, D], [E, D]]);
      await append(store, B, foreign(), T0 + MINUTE);
      await store.drain({ watcher: A, acks: [{ target: B, notified: (await heldNotices(store))[0]?.notified ?? seqOf(0) }], now: T0 + 2 * MINUTE });
      await store.resetWatcher(C, T0 + 3 * MINUTE);
      // Cutoff +1 min: the watch starts go (A's pair keeps later entries), E -> D (touched at T0 only) expires.
      await pruneAll(store, T0 + 31 * MINUTE, 30 * MINUTE, 1000);
      // Entries from the cutoff on stay, ended pairs' too.
      expect(await journalTypes(store)).toEqual([`${A} -> ${B} notice_raised`, `${A} -> ${B} notice_acknowledged`, `${C} -> ${D} watch_ended`, `${E} -> ${D} watch_ended`]);
      // The row cap: every entry of an ended pair goes, the live pair's latest stays.
      await pruneAll(store, T0 + 32 * MINUTE, DAY, 0);
      expect(await journalTypes(store)).toEqual([`${A} -> ${B} notice_acknowledged`]);
      expect(await replayMismatch(store, await liveRow(store, A, B))).toBeUndefined();
    });

    test('a pair’s entries go oldest first: none goes while an older entry of the pair stays, one a batch before passed (the journal within its cap then) or one the age limit keeps (a clock that went back)', async () => {
      const watchChangeDrain = async (watcher: SessionKey, target: SessionKey, watchAt: number, changeAt: number): Promise<void> => {
        await store.watch({ watcher, target, now: watchAt });
        await append(store, target, foreign(E), changeAt);
        const [notice] = await heldNotices(store, (w) => w === watcher);
        await store.drain({ watcher, acks: [{ target, notified: notice?.notified ?? seqOf(0) }], now: changeAt });
      };
      await watchChangeDrain(A, B, T0, T0);
      await watchChangeDrain(C, D, T0 + 10 * MINUTE, T0);
      const all = await journalTypes(store);
      const [first] = await store.readCursorJournal();
      // Resuming after A -> B's watch_started, over the cap: its later entries wait with it.
      await store.prune({ now: T0 + 10 * MINUTE, maxAgeMs: DAY, maxRows: 0, batchSize: 1, journalAfter: first?.position ?? 0 });
      expect(await journalTypes(store)).toEqual(all);
      // The age limit (cutoff T0 + 5 min) takes A -> B's older entries; C -> D's watch_started is younger, so its aged later entries stay.
      await pruneAll(store, T0 + 10 * MINUTE, 5 * MINUTE, 1000, 1000, DAY);
      expect(await journalTypes(store)).toEqual([`${A} -> ${B} notice_acknowledged`, ...all.filter((entry) => entry.startsWith(`${C} -> ${D}`))]);
      for (const [watcher, target] of [[A, B], [C, D]] as const) expect(await replayMismatch(store, await liveRow(store, watcher, target))).toBeUndefined();
    });

    // Journal retention walks the journal a window at a time: a batch examines at most batchSize
    // entries after where the run's previous batch stopped (PruneBatch.journalAfter).
    describe('journal retention in windows', () => {
      const watchers = Array.from({ length: 12 }, (_, i) => key(`agent:w${i}:main`));
      const layout = async (liveAt = T0): Promise<void> => {
        // Twelve live pairs, one entry each (kept: the latest entry of a live pair), then two
        // ended pairs whose four entries are removable, all after the kept ones.
        for (const watcher of watchers) await store.watch({ watcher, target: B, now: liveAt });
        for (const target of [C, D]) {
          await store.watch({ watcher: A, target, now: T0 + 1 });
          await store.unwatch(A, target, T0 + 2);
        }
      };
      const ended = [`${A} -> ${C} watch_started`, `${A} -> ${C} watch_ended`, `${A} -> ${D} watch_started`, `${A} -> ${D} watch_ended`];

      test('the row cap runs in bounded batches: done stays false while removable entries beyond the cap are left; over its cap with nothing removable, done in a bounded number of batches, nothing deleted', async () => {
        // Three ended pairs: six removable entries, none old enough for the age limit.
        for (const target of [B, C, D]) {
          await store.watch({ watcher: A, target, now: T0 });
          await store.unwatch(A, target, T0 + 1);
        }
        expect(await store.readCursorJournal()).toHaveLength(6);
        expect((await pruneAll(store, T0 + 2, DAY, 0, 1)).calls).toBeGreaterThanOrEqual(6);
        expect(await store.readCursorJournal()).toEqual([]);
        for (const watcher of watchers) await store.watch({ watcher, target: B, now: T0 + 2 });
        const before = await store.readCursorJournal();
        const { calls } = await pruneAll(store, T0 + 3, DAY, 0, 5);
        expect(await store.readCursorJournal()).toEqual(before);
        // One pass in windows of five: three windows, and at most one batch to see the end.
        expect(calls).toBeLessThanOrEqual(4);
      });

      test('a batch examines a window of batchSize entries: removable entries past it stay for the next batch', async () => {
        await layout();
        const first = await store.prune({ now: T0 + 3, maxAgeMs: DAY, maxRows: 0, batchSize: 5 });
        expect(first.done).toBe(false);
        expect(await store.readCursorJournal()).toHaveLength(watchers.length + 4);
      });

      // Live pairs watched at T0 + 5 outlive the age limit (cutoff T0 + 2), which takes the ended pairs' starts (recorded at T0 + 1).
      for (const [what, liveAt, now, maxRows, left] of [
        ['removable entries after a long run of kept ones are still deleted within the run', T0, T0 + 3, 0, []],
        ['the cap stays exact: only the lowest removable entries beyond maxRows go', T0, T0 + 3, watchers.length + 2, ended.slice(2)],
        ['aged removable entries after a long run of kept ones go within the run', T0 + 5, T0 + 2 + DAY, 1000, [ended[1], ended[3]]],
      ] as const) {
        test(what, async () => {
          await layout(liveAt);
          await pruneAll(store, now, DAY, maxRows, 5);
          expect(await journalTypes(store)).toEqual([...watchers.map((watcher) => `${watcher} -> ${B} watch_started`), ...left]);
        });
      }

      test('journalAfter must be a non-negative safe integer', async () => {
        await expect(store.prune({ now: T0, maxAgeMs: DAY, maxRows: 0, batchSize: 5, journalAfter: -1 })).rejects.toMatchObject({ _tag: 'StoreError', message: expect.stringContaining('journalAfter') });
      });
    });
  });
}
