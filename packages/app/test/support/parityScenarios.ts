// The OpenClaw-parity scenarios through the facade, written once and run on every store (the memory
// and SQLite stores in openclawParity.test.ts, PostgreSQL in postgres/openclawParity.test.ts): the
// `created` kind, `occurredAt` clamped to the clock, `earliestRetained` beside `historyGap`, `watched`,
// ambient watches (queued, never woken for) and the watchers a record names.
import type { SessionKey, StateStore } from '@session-state/domain';
import { noticeTextOf, type StoreKind } from '@session-state/testkit';

import type { RecordResult } from '../../src/index.js';
import { CHILD, humanTurn, openFixture, OTHER_CHILD, PARENT, PEER, type Fixture, type FixtureOptions } from './harness.js';
import { noticeTexts } from './noticeTexts.js';

const DAY = 24 * 60 * 60 * 1000;

const sequenceOf = (result: RecordResult): number => {
  if (result.outcome !== 'recorded') throw new Error('expected a recorded event');
  return result.event.sequence;
};

/** Wraps a store so every method call is named in `calls`, in order. */
function countingStore(calls: string[]): (store: StateStore) => StateStore {
  return (store) =>
    new Proxy(store, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          calls.push(String(name));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}

/** Registers the scenarios for each `[name, kind]` row. */
export function describeParity(rows: readonly (readonly [string, StoreKind])[]): void {
  describe.each(rows)('OpenClaw parity on the %s store', (_name, kind) => {
    let f: Fixture | undefined;
    const open = async (options: FixtureOptions = {}): Promise<Fixture> => (f = await openFixture(kind, options));
    afterEach(async () => {
      await f?.dispose();
      f = undefined;
    });

    test('a created event is logged and returned by status, and notifies nobody: no notice, no wake, the watcher stays idle', async () => {
      const fx = await open();
      await fx.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      const created = sequenceOf(await fx.awareness.record({ sessionKey: CHILD, kind: 'created', actorType: 'human', summary: 'session created' }));
      expect((await fx.awareness.status(CHILD, { changesSince: created - 1 })).stateChanges?.events).toMatchObject([{ sequence: created, kind: 'created', actorType: 'human' }]);
      expect([fx.awareness.pending(PARENT), fx.wakes, await fx.awareness.watched(PARENT)]).toEqual([[], [], [{ sessionKey: CHILD, stateVersion: created, pending: false }]]);
    });

    test('occurredAt is clamped into the day before the clock\'s now: a future time reads as now, an older one as 24 hours ago, one inside as given', async () => {
      const fx = await open();
      const now = fx.clock.now();
      const iso = (ms: number): string => new Date(ms).toISOString();
      const given = [iso(now + 60_000), now + 365 * DAY, iso(now - DAY - 1), 0, iso(now - DAY), iso(now - 3_600_000)];
      const stored = [now, now, now - DAY, now - DAY, now - DAY, now - 3_600_000].map(iso);
      const recorded: string[] = [];
      for (const occurredAt of given) {
        const result = await fx.awareness.record(humanTurn(PEER, { occurredAt }));
        if (result.outcome !== 'recorded') throw new Error('expected a recorded event');
        recorded.push(result.event.occurredAt);
      }
      expect(recorded).toEqual(stored);
      const events = (await fx.awareness.status(PEER, { changesSince: 0 })).stateChanges?.events ?? [];
      expect(events.map((event) => event.occurredAt)).toEqual(stored);
    });

    test('earliestRetained beside historyGap: the lowest retained sequence whatever changesSince, moved up by pruning, 0 when the session retains none', async () => {
      const fx = await open({ retention: { maxAgeMs: 1000 } });
      const old = sequenceOf(await fx.awareness.record(humanTurn(PEER)));
      fx.clock.advance(5000);
      const fresh = [sequenceOf(await fx.awareness.record(humanTurn(PEER))), sequenceOf(await fx.awareness.record(humanTurn(PEER)))] as const;
      const earliest = async (changesSince: number): Promise<number | undefined> => (await fx.awareness.status(PEER, { changesSince, limit: 1 })).stateChanges?.earliestRetained;
      expect([await earliest(0), await earliest(fresh[1]), await earliest(fresh[1] + 1000)]).toEqual([old, old, old]);
      await fx.awareness.prune();
      expect((await fx.awareness.status(PEER, { changesSince: 0 })).stateChanges).toMatchObject({ historyGap: true, earliestRetained: fresh[0] });
      expect((await fx.awareness.status(CHILD, { changesSince: 0 })).stateChanges).toMatchObject({ historyGap: false, earliestRetained: 0 });
      await fx.awareness.sessionDeleted(PEER);
      expect(await fx.awareness.status(PEER, { changesSince: 0 })).toMatchObject({ stateVersion: fresh[1], stateChanges: { historyGap: true, earliestRetained: 0, events: [] } });
    });

    test('watched: the watcher\'s targets by key, each with its state version and whether it is pending; a drain clears pending; other watchers\' cursors are not listed', async () => {
      const fx = await open();
      const other = sequenceOf(await fx.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD }));
      await fx.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      await fx.awareness.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true });
      await fx.awareness.sent({ senderKey: PEER, deliveredTo: CHILD, watch: true });
      const turn = sequenceOf(await fx.awareness.record(humanTurn(CHILD)));

      expect(await fx.awareness.watched(PARENT)).toEqual([
        { sessionKey: CHILD, stateVersion: turn, pending: true },
        { sessionKey: OTHER_CHILD, stateVersion: other, pending: false },
        { sessionKey: PEER, pending: false },
      ]);
      expect(await fx.awareness.watched(PEER)).toEqual([{ sessionKey: CHILD, stateVersion: turn, pending: true }]);
      await fx.awareness.drain(PARENT);
      expect((await fx.awareness.watched(PARENT)).map((row) => row.pending)).toEqual([false, false, false]);
      await fx.awareness.unwatch(PARENT, PEER);
      expect((await fx.awareness.watched(PARENT)).map((row) => row.sessionKey)).toEqual([CHILD, OTHER_CHILD]);
      expect(await fx.awareness.watched(CHILD)).toEqual([]);
    });

    test('watched costs one cursor read by watcher and one heads read, and writes nothing: no cursor, journal entry, notice or wake changes', async () => {
      const calls: string[] = [];
      const fx = await open({ wrap: countingStore(calls) });
      await fx.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      await fx.awareness.record(humanTurn(CHILD));
      const store = fx.stores.store;
      const before = [await store.listCursors(), await store.readCursorJournal(), noticeTexts(fx.awareness.pending(PARENT)), [...fx.wakes]];
      calls.length = 0;
      await fx.awareness.watched(PARENT);
      expect(calls.filter((call) => call !== 'prune')).toEqual(['listCursors', 'readHeads']);
      expect([await store.listCursors(), await store.readCursorJournal(), noticeTexts(fx.awareness.pending(PARENT)), fx.wakes]).toEqual(before);
    });
    test('an ambient watch queues notices but wakes nobody: not for a first notice, a lease that ends unconfirmed (on its real timer too), a reopen, nor at a restart', async () => {
      const fx = await open({ leaseMs: 20 });
      expect(await fx.awareness.watch(PARENT, PEER, { ambient: true })).toEqual({ watched: true });
      const first = sequenceOf(await fx.awareness.record(humanTurn(PEER)));
      await fx.awareness.record(humanTurn(PEER));
      expect(noticeTexts(fx.awareness.pending(PARENT))).toEqual([noticeTextOf(PEER, 0)]);
      await fx.awareness.take(PARENT);
      fx.clock.advance(20);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(noticeTexts(await fx.awareness.drain(PARENT))).toEqual([noticeTextOf(PEER, 0)]);
      expect(noticeTexts(fx.awareness.pending(PARENT))).toEqual([noticeTextOf(PEER, first)]);
      expect(fx.wakes).toEqual([]);
      const restarted = (f = await fx.restart());
      expect([noticeTexts(restarted.awareness.pending(PARENT)), restarted.wakes]).toEqual([[noticeTextOf(PEER, first)], []]);
    });

    test('an explicit watch (sent with watch) promotes an ambient one, journalled watch_promoted: its next notice wakes; a later ambient watch never downgrades it', async () => {
      const fx = await open();
      await fx.awareness.watch(PARENT, PEER, { ambient: true });
      await fx.awareness.record(humanTurn(PEER));
      expect(await fx.awareness.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true })).toEqual({ watched: true });
      expect(await fx.awareness.watch(PARENT, PEER, { ambient: true })).toEqual({ watched: true });
      await fx.awareness.drain(PARENT);
      expect(fx.wakes).toEqual([]);
      await fx.awareness.record(humanTurn(PEER));
      expect(fx.wakes).toEqual([PARENT]);
      const journal = await fx.stores.store.readCursorJournal({ watcher: PARENT as SessionKey, target: PEER as SessionKey });
      expect(journal.map((entry) => entry.event.type)).toEqual(['watch_started', 'notice_raised', 'watch_promoted', 'notice_acknowledged', 'notice_raised']);
    });

    test('watch answers watched false for keys that do not qualify, writing nothing, and refuses bad input naming the field', async () => {
      const fx = await open();
      for (const [watcher, target] of [[PARENT, PARENT], [PARENT, 'global'], ['cron:nightly', PEER]] as const) expect(await fx.awareness.watch(watcher, target, { ambient: true })).toEqual({ watched: false });
      expect(await fx.stores.store.listCursors()).toEqual([]);
      const bad: readonly (readonly [readonly unknown[], string])[] = [
        [['bad key', PEER], 'watch.watcherKey'],
        [[PARENT, 7], 'watch.targetKey'],
        [[PARENT, PEER, { ambient: 'yes' }], 'watch.options.ambient'],
        [[PARENT, PEER, { quiet: true }], 'watch.options.quiet'],
      ];
      for (const [args, field] of bad) await expect((fx.awareness.watch as (...a: readonly unknown[]) => Promise<unknown>)(...args)).rejects.toMatchObject({ name: 'InvalidInputError', field });
    });

    test('a record naming the spawning parent gives it a cursor again after its spawn cursor expired: that change notifies and wakes it', async () => {
      const fx = await open({ retention: { maxAgeMs: DAY, cursorMaxAgeMs: 1000 } });
      const spawned = sequenceOf(await fx.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD }));
      fx.clock.advance(5000);
      expect(await fx.awareness.prune()).toMatchObject({ cursorsExpired: 1 });
      const turn = sequenceOf(await fx.awareness.record(humanTurn(CHILD)));
      expect(fx.awareness.pending(PARENT)).toEqual([]);
      const named = sequenceOf(await fx.awareness.record(humanTurn(CHILD, { watchers: [PARENT] })));
      expect([noticeTexts(fx.awareness.pending(PARENT)), fx.wakes]).toEqual([[noticeTextOf(CHILD, turn)], [PARENT]]);
      expect((await fx.awareness.status(CHILD, { changesSince: turn })).stateChanges?.events.map((event) => event.sequence)).toEqual([named]);
      expect(spawned).toBeLessThan(turn);
    });

    test('record refuses watchers that are not session keys (naming record.watchers.N), not an array, or more than 16, writing nothing', async () => {
      const fx = await open();
      const many = Array.from({ length: 17 }, (_, i) => `agent:w${i}:main`);
      for (const [watchers, field] of [[[PARENT, 'bad key'], 'record.watchers.1'], [many, 'record.watchers'], [PARENT, 'record.watchers']] as const) {
        expect(await fx.awareness.record(humanTurn(CHILD, { watchers: watchers as never }))).toMatchObject({ ok: false, outcome: 'failed', error: { name: 'InvalidInputError', field } });
      }
      expect([(await fx.awareness.status(CHILD)).stateVersion, await fx.stores.store.listCursors()]).toEqual([0, []]);
    });
  });
}
