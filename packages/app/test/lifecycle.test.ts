// Scenarios of restart, reset, delete, cursor expiry, the prune schedule and close, on every store.

import { faultStoreOption, noticeTextOf, storeMatrix, type StoreKind } from '@session-state/testkit';

import { ClosedError } from '../src/index.js';
import { CHILD, humanTurn, openFixture, OTHER_CHILD, PARENT, PEER, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const HOUR = 60 * 60 * 1000;

describe.each(storeMatrix)('lifecycle on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  afterEach(async () => {
    await f.dispose();
  });

  test('a restart re-queues exactly the pending notices, once each, and wakes', async () => {
    f = await openFixture(kind);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const spawnOther = await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    if (!spawnOther.ok) throw spawnOther.error;
    await f.awareness.record(humanTurn(CHILD));
    noticeTexts(await f.awareness.drain(PARENT)); // the CHILD notice is consumed: it must not come back
    await f.awareness.record(humanTurn(OTHER_CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    const expected = [noticeTextOf(OTHER_CHILD, spawnOther.event.sequence)];
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(expected);

    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(expected);
    expect(f.wakes).toEqual([PARENT]);
    expect(f.awareness.metrics().noticesRecovered).toBe(1);

    // A later change to the same target keeps the one line and wakes nothing.
    await f.awareness.record(humanTurn(OTHER_CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(expected);
    expect(f.wakes).toEqual([PARENT]);

    // Scanning again adds nothing; once drained, a restart finds nothing.
    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(expected);
    noticeTexts(await f.awareness.drain(PARENT));
    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    expect(f.wakes).toEqual([]);
  });

  test('sessionReset removes the watcher\'s cursors and notices, and nobody else\'s', async () => {
    f = await openFixture(kind);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await f.awareness.sent({ senderKey: PEER, deliveredTo: CHILD, watch: true });
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    const peerBefore = noticeTexts(f.awareness.pending(PEER));
    expect(peerBefore).toHaveLength(1);

    await f.awareness.sessionReset(PARENT);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    expect(noticeTexts(f.awareness.pending(PEER))).toEqual(peerBefore);

    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test('sessionDeleted removes its events, cursors and notices, and keeps its head as a tombstone', async () => {
    f = await openFixture(kind);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await f.awareness.sent({ senderKey: CHILD, deliveredTo: PEER, watch: true });
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    await f.awareness.record(humanTurn(PEER));
    expect(noticeTexts(f.awareness.pending(CHILD))).toHaveLength(1);
    const versionBefore = (await f.awareness.status(CHILD)).stateVersion;

    await f.awareness.sessionDeleted(CHILD);

    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
    expect(noticeTexts(f.awareness.pending(PARENT))[0]).toContain(`"${OTHER_CHILD}"`);
    expect(noticeTexts(f.awareness.pending(CHILD))).toEqual([]);
    const status = await f.awareness.status(CHILD, { changesSince: 0 });
    expect(status.stateVersion).toBe(versionBefore);
    expect(status.stateChanges).toMatchObject({ events: [], historyGap: true });
    expect(await f.awareness.list([CHILD])).toEqual([{ sessionKey: CHILD, stateVersion: versionBefore }]);

    // No cursor survives either way: new changes notify nobody about or for CHILD.
    await f.awareness.record(humanTurn(PEER));
    const recreated = await f.awareness.record(humanTurn(CHILD));
    if (!recreated.ok || !('event' in recreated)) throw new Error('recreated session not recorded');
    expect(recreated.event.sequence).toBeGreaterThan(versionBefore);
    expect(noticeTexts(f.awareness.pending(CHILD))).toEqual([]);
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
  });

  test('prune expires idle cursors with their notices', async () => {
    f = await openFixture(kind, { retention: { maxAgeMs: 1000 } });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
    f.clock.advance(5000);

    expect(await f.awareness.prune()).toEqual({ eventsDeleted: 2, cursorsExpired: 1 });
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    await f.awareness.record(humanTurn(CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test('retention.cursorMaxAgeMs keeps a pending watch past the events age limit; the events still go', async () => {
    f = await openFixture(kind, { retention: { maxAgeMs: 1000, cursorMaxAgeMs: 10_000 } });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    f.clock.advance(5000);

    expect(await f.awareness.prune()).toEqual({ eventsDeleted: 2, cursorsExpired: 0 });
    expect(f.awareness.pending(PARENT)).toHaveLength(1);
    f.clock.advance(6000);
    expect(await f.awareness.prune()).toEqual({ eventsDeleted: 0, cursorsExpired: 1 });
    expect(f.awareness.pending(PARENT)).toEqual([]);
  });

  test('prune runs on start and at most hourly after appends, measured on the clock port', async () => {
    const faulty = faultStoreOption();
    f = await openFixture(kind, { retention: { maxAgeMs: 1000 }, wrap: faulty.wrap });
    const pruneCalls = (): number => faulty.faults().countOf('prune');
    await f.awareness.record(humanTurn(PEER));
    expect(pruneCalls()).toBe(1); // the start-up prune

    f.clock.advance(HOUR - 1);
    await f.awareness.record(humanTurn(PEER));
    await f.awareness.record(humanTurn(PEER)); // queued behind any prune the first one started
    expect(pruneCalls()).toBe(1);

    f.clock.advance(1);
    await f.awareness.record(humanTurn(PEER));
    await f.awareness.list([PEER]);
    await f.awareness.close(); // waits for the background prune
    expect(pruneCalls()).toBe(2);
    // Only the first event is older than maxAgeMs at the second prune.
    expect(f.awareness.metrics().rowsPruned).toBe(1);
  });

  test('the hourly prune schedule survives a clock set back: the row cap is still enforced', async () => {
    f = await openFixture(kind, { retention: { maxRows: 3 } });
    await f.awareness.record(humanTurn(PEER)); // the start-up prune ran at START
    f.clock.set(f.clock.now() - 24 * HOUR); // corrected backwards by a day
    for (let i = 0; i < 5; i += 1) await f.awareness.record(humanTurn(PEER));
    // An hour on (still a day before the start-up prune by the clock), appends prune again.
    f.clock.advance(HOUR);
    await f.awareness.record(humanTurn(PEER));
    await f.awareness.list([PEER]);
    await f.awareness.close(); // waits for a background prune the appends started
    expect(f.awareness.metrics().rowsPruned).toBe(7 - 3);
  });

  test('operations run in call order: an append fired just before a delete, a reset or a watch is applied first', async () => {
    f = await openFixture(kind);
    // Not awaited, then deleted in the same tick: the delete must remove it (no resurrection).
    const fired = f.awareness.record(humanTurn(CHILD));
    await f.awareness.sessionDeleted(CHILD);
    expect((await fired).ok).toBe(true);
    const afterDelete = await f.awareness.status(CHILD, { changesSince: 0 });
    expect(afterDelete.stateChanges?.events).toEqual([]);
    expect(afterDelete.stateChanges?.historyGap).toBe(true);

    // A spawn edge fired just before the parent's reset is removed by the reset.
    const spawned = f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await f.awareness.sessionReset(PARENT);
    expect((await spawned).ok).toBe(true);
    await f.awareness.record(humanTurn(OTHER_CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);

    // A change recorded just before a watch starts is history for that watcher: no notice.
    const earlier = f.awareness.record(humanTurn(PARENT));
    expect(await f.awareness.sent({ senderKey: PEER, deliveredTo: PARENT, watch: true })).toEqual({ watched: true });
    expect((await earlier).ok).toBe(true);
    expect(noticeTexts(f.awareness.pending(PEER))).toEqual([]);

    // A drain called right after a record sees the notice that record queues.
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const turn = f.awareness.record(humanTurn(CHILD));
    const drained = noticeTexts(await f.awareness.drain(PARENT));
    expect((await turn).ok).toBe(true);
    expect(drained).toHaveLength(1);
  });

  test('close waits for queued work, closes the store, and later calls fail clearly', async () => {
    f = await openFixture(kind);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const inFlight = f.awareness.record(humanTurn(CHILD));
    await f.awareness.close();
    expect((await inFlight).ok).toBe(true);

    const late = await f.awareness.record(humanTurn(CHILD));
    expect(late.ok).toBe(false);
    expect(!late.ok && late.error).toBeInstanceOf(ClosedError);
    expect(() => noticeTexts(f.awareness.pending(PARENT))).toThrow(ClosedError);
    await expect(f.awareness.drain(PARENT)).rejects.toThrow(/drain called after close/);
    await expect(f.awareness.status(CHILD)).rejects.toBeInstanceOf(ClosedError);
    await expect(f.awareness.close()).resolves.toBeUndefined();

    // The record made before close is durable.
    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
  });
});
