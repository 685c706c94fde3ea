// The issue 15 scenarios through the facade, written once and run on every store (the memory and
// SQLite stores in agentSide.test.ts, PostgreSQL in postgres/agentSide.test.ts): structured
// notices, unwatch, the reconcile that acknowledges (`status` with `reader`), and the results
// tagged by `outcome`.
import type { SessionKey } from '@session-state/domain';
import { noticeTextOf, type FaultStore, type StoreKind } from '@session-state/testkit';

import { InvalidInputError } from '../../src/index.js';
import { CHILD, humanTurn, openFaultyFixture, OTHER_CHILD, PARENT, PEER, type Fixture } from './harness.js';

/** Registers the scenarios for each `[name, kind]` row. */
export function describeAgentSide(rows: readonly (readonly [string, StoreKind])[]): void {
  describe.each(rows)('the agent’s side on the %s store', (_name, kind) => {
    let f: Fixture;
    let faults: FaultStore;
    beforeEach(async () => {
      ({ fixture: f, faults } = await openFaultyFixture(kind));
    });
    afterEach(async () => {
      await f.dispose();
    });

    /** A spawn edge PARENT -> CHILD; returns its sequence. */
    const spawn = async (child: string = CHILD): Promise<number> => {
      const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: child });
      if (spawned.outcome !== 'recorded') throw new Error('spawn not recorded');
      return spawned.event.sequence;
    };

    /** A human turn on `target`; returns its sequence. */
    const turn = async (target: string = CHILD): Promise<number> => {
      const result = await f.awareness.record(humanTurn(target));
      if (result.outcome !== 'recorded') throw new Error('turn not recorded');
      return result.event.sequence;
    };

    // --- structured notices ---------------------------------------------------------------------

    describe('structured notices', () => {
      test('pending and drain return { watcher, target, changesSince, text }, the text byte-identical to the 0.1 line', async () => {
        const seeded = await spawn();
        await turn();
        const expected = { watcher: PARENT, target: CHILD, changesSince: seeded, text: noticeTextOf(CHILD, seeded) };
        expect(f.awareness.pending(PARENT)).toEqual([expected]);
        expect(await f.awareness.drain(PARENT)).toEqual([expected]);
      });

      test('a reopened notice carries the new changesSince; one notice per target, oldest first', async () => {
        const seeded = await spawn();
        const other = await spawn(OTHER_CHILD);
        const first = await turn();
        await turn(OTHER_CHILD);
        await turn();
        await f.awareness.drain(PARENT);
        expect(f.awareness.pending(PARENT)).toEqual([{ watcher: PARENT, target: CHILD, changesSince: first, text: noticeTextOf(CHILD, first) }]);
        expect(seeded).toBeLessThan(other);
      });

      test('the objects are the caller’s: changing one changes nothing queued', async () => {
        await spawn();
        await turn();
        const [notice] = f.awareness.pending(PARENT);
        const before = JSON.stringify(f.awareness.pending(PARENT));
        (notice as { changesSince: number }).changesSince = 999;
        expect(JSON.stringify(f.awareness.pending(PARENT))).toBe(before);
      });
    });

    // --- unwatch --------------------------------------------------------------------------------

    describe('unwatch', () => {
      test('ends a spawn edge: the queued notice is withdrawn, later changes notify nobody, the journal says unwatched', async () => {
        await spawn();
        await turn();
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        expect(await f.awareness.unwatch(PARENT, CHILD)).toEqual({ unwatched: true });
        expect(f.awareness.pending(PARENT)).toEqual([]);
        expect(await f.awareness.drain(PARENT)).toEqual([]);
        await turn();
        expect(f.awareness.pending(PARENT)).toEqual([]);
        expect(f.awareness.metrics()).toMatchObject({ noticesUnwatched: 1 });
        const journal = await f.stores.store.readCursorJournal({ watcher: PARENT as SessionKey, target: CHILD as SessionKey });
        expect(journal[journal.length - 1]?.event).toEqual({ type: 'watch_ended', reason: 'unwatched' });
      });

      test('a pair without a cursor is { unwatched: false } and other pairs keep their notices', async () => {
        await spawn();
        await f.awareness.sent({ senderKey: PEER, deliveredTo: CHILD, watch: true });
        await turn();
        expect(await f.awareness.unwatch(PEER, OTHER_CHILD)).toEqual({ unwatched: false });
        expect(await f.awareness.unwatch(PEER, CHILD)).toEqual({ unwatched: true });
        expect(await f.awareness.unwatch(PEER, CHILD)).toEqual({ unwatched: false });
        expect(f.awareness.pending(PEER)).toEqual([]);
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
      });

      test('a later sent with watch: true starts a new watch at the target’s head then: earlier changes never notify', async () => {
        await spawn();
        await f.awareness.unwatch(PARENT, CHILD);
        const unseen = await turn();
        expect(await f.awareness.sent({ senderKey: PARENT, deliveredTo: CHILD, watch: true })).toEqual({ watched: true });
        expect(f.awareness.pending(PARENT)).toEqual([]);
        await turn();
        expect(f.awareness.pending(PARENT)).toEqual([{ watcher: PARENT, target: CHILD, changesSince: unseen, text: noticeTextOf(CHILD, unseen) }]);
      });

      test('rejects invalid keys naming the argument, and a store failure naming unwatch; nothing changes', async () => {
        await spawn();
        await turn();
        await expect(f.awareness.unwatch('not a key', CHILD)).rejects.toThrow(InvalidInputError);
        await expect(f.awareness.unwatch(PARENT, 42 as never)).rejects.toThrow(/unwatch\.targetKey/u);
        faults.failNext('unwatch');
        await expect(f.awareness.unwatch(PARENT, CHILD)).rejects.toThrow(/session-state unwatch failed/u);
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        expect(await f.stores.store.listCursors({ watcher: PARENT as SessionKey })).toHaveLength(1);
      });
    });

    // --- reconcile that acknowledges ------------------------------------------------------------

    describe('status with reader', () => {
      test('a burst of two human messages costs one turn with reader: the read covers the reopened notice, which is withdrawn', async () => {
        await spawn();
        await turn();
        const last = await turn();
        const [notice] = await f.awareness.drain(PARENT);
        expect(f.awareness.pending(PARENT)).toHaveLength(1); // the drain reopened for the second message
        const status = await f.awareness.status(CHILD, { changesSince: notice?.changesSince ?? -1, reader: PARENT });
        expect(status.stateVersion).toBe(last);
        expect(f.awareness.pending(PARENT)).toEqual([]);
        expect(f.awareness.metrics()).toMatchObject({ noticesAcknowledgedByRead: 1 });
        const [row] = await f.stores.store.listCursors({ watcher: PARENT as SessionKey, target: CHILD as SessionKey });
        expect([row?.acked, row?.notified, row?.material]).toEqual([last, last, last]);
      });

      test('without reader the same burst costs two turns, exactly as before (status stays read-only)', async () => {
        await spawn();
        await turn();
        await turn();
        const [notice] = await f.awareness.drain(PARENT);
        const cursorsBefore = await f.stores.store.listCursors();
        const journalBefore = await f.stores.store.readCursorJournal();
        await f.awareness.status(CHILD, { changesSince: notice?.changesSince ?? -1 });
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        expect(await f.stores.store.listCursors()).toEqual(cursorsBefore);
        expect(await f.stores.store.readCursorJournal()).toEqual(journalBefore);
        expect(f.awareness.metrics()).toMatchObject({ noticesAcknowledgedByRead: 0 });
      });

      test('a page that does not reach the head acknowledges nothing; the page that does, from nextSince, does not either (it started above acked)', async () => {
        const seeded = await spawn();
        await turn();
        await turn();
        const page = await f.awareness.status(CHILD, { changesSince: seeded, limit: 1, reader: PARENT });
        expect(page.stateChanges?.hasMore).toBe(true);
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        await f.awareness.status(CHILD, { changesSince: page.stateChanges?.nextSince ?? -1, reader: PARENT });
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        await f.awareness.status(CHILD, { changesSince: seeded, reader: PARENT });
        expect(f.awareness.pending(PARENT)).toEqual([]);
      });

      test('a change after the read reopens one notice, from the head the read reached, with a wake', async () => {
        await spawn();
        const first = await turn();
        await f.awareness.status(CHILD, { changesSince: 0, reader: PARENT });
        expect(f.awareness.pending(PARENT)).toEqual([]);
        const wakesBefore = f.wakes.length;
        await turn();
        expect(f.awareness.pending(PARENT)).toEqual([{ watcher: PARENT, target: CHILD, changesSince: first, text: noticeTextOf(CHILD, first) }]);
        expect(f.wakes.slice(wakesBefore)).toEqual([PARENT]);
      });

      test('another watcher’s notice is untouched; a reader without a cursor, or without changesSince, changes nothing', async () => {
        await spawn();
        await f.awareness.sent({ senderKey: PEER, deliveredTo: CHILD, watch: true });
        await turn();
        await f.awareness.status(CHILD, { changesSince: 0, reader: OTHER_CHILD });
        await f.awareness.status(CHILD, { reader: PARENT });
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        await f.awareness.status(CHILD, { changesSince: 0, reader: PARENT });
        expect(f.awareness.pending(PARENT)).toEqual([]);
        expect(f.awareness.pending(PEER)).toHaveLength(1);
      });

      test('a reader that is not a session key is rejected naming status.reader', async () => {
        await expect(f.awareness.status(CHILD, { changesSince: 0, reader: 'two words' })).rejects.toThrow(/status\.reader/u);
      });

      test('a failed acknowledgement is logged and the status still answers; the notice stays queued', async () => {
        await spawn();
        const last = await turn();
        faults.failNext('acknowledgeRead');
        const status = await f.awareness.status(CHILD, { changesSince: 0, reader: PARENT });
        expect(status.stateVersion).toBe(last);
        expect(f.awareness.pending(PARENT)).toHaveLength(1);
        expect(f.logger.entries).toEqual([expect.objectContaining({ level: 'error', fields: expect.objectContaining({ operation: 'acknowledgeRead', watcher: PARENT, target: CHILD }) })]);
      });
    });

    // --- one error style ---------------------------------------------------------------------------

    describe('results tagged by outcome', () => {
      test('record: recorded, skipped (unwatched) and failed; ok agrees with the tag', async () => {
        const recorded = await f.awareness.record(humanTurn(PARENT));
        expect(recorded).toMatchObject({ ok: true, outcome: 'recorded', event: { sessionKey: PARENT } });
        expect(await f.awareness.record(humanTurn(OTHER_CHILD, { onlyIfWatched: true }))).toEqual({ ok: true, outcome: 'skipped', reason: 'unwatched' });
        const failed = await f.awareness.record({ ...humanTurn(PARENT), kind: 'nope' as never });
        expect(failed).toMatchObject({ ok: false, outcome: 'failed' });
        expect(failed.outcome === 'failed' ? failed.error : undefined).toBeInstanceOf(InvalidInputError);
      });

      test('childSpawned: recorded, or failed on a storage failure', async () => {
        expect(await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD })).toMatchObject({ ok: true, outcome: 'recorded' });
        faults.failNext('append');
        expect(await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD })).toMatchObject({ ok: false, outcome: 'failed' });
      });
    });
  });
}
