// Scenarios of SPEC 6-7 through the facade, on every store: exact paging with nextSince,
// historyGap after age and after row pruning, list, and reads that never touch notices.
import { storeMatrix, type StoreKind } from '@session-state/testkit';

import type { RecordResult } from '../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, PEER, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const sequenceOf = (result: RecordResult): number => {
  if (!result.ok || !('event' in result)) throw new Error('expected a recorded event');
  return result.event.sequence;
};

describe.each(storeMatrix)('reconciliation on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  afterEach(async () => {
    await f.dispose();
  });

  test('450 events page through nextSince with no skip and no repeat', async () => {
    f = await openFixture(kind);
    const recorded = (await Promise.all(Array.from({ length: 450 }, (_, i) => f.awareness.record(humanTurn(PEER, { summary: `turn ${i}` }))))).map(sequenceOf);
    await f.awareness.record(humanTurn(CHILD)); // another session's events never show up

    const seen: number[] = [];
    const pages: boolean[] = [];
    let since = 0;
    for (;;) {
      const status = await f.awareness.status(PEER, { changesSince: since });
      const changes = status.stateChanges;
      if (changes === undefined) throw new Error('stateChanges missing');
      expect(changes.events.length).toBeLessThanOrEqual(200);
      expect(changes.historyGap).toBe(false);
      seen.push(...changes.events.map((e) => e.sequence));
      pages.push(changes.hasMore);
      since = changes.nextSince;
      if (!changes.hasMore) break;
    }

    expect(seen).toEqual(recorded);
    expect(pages).toEqual([true, true, false]);
    expect(since).toBe((await f.awareness.status(PEER)).stateVersion);
    const after = await f.awareness.status(PEER, { changesSince: since });
    expect(after.stateChanges).toEqual({ events: [], historyGap: false, earliestRetained: recorded[0], hasMore: false, nextSince: since });
  });

  test('a smaller limit pages the same events; changesSince above the version gives nothing and no gap', async () => {
    f = await openFixture(kind);
    const recorded = [];
    for (let i = 0; i < 5; i += 1) recorded.push(sequenceOf(await f.awareness.record(humanTurn(PEER))));
    const page = await f.awareness.status(PEER, { changesSince: 0, limit: 2 });
    expect(page.stateChanges?.events.map((e) => e.sequence)).toEqual(recorded.slice(0, 2));
    expect(page.stateChanges?.hasMore).toBe(true);

    const beyond = await f.awareness.status(PEER, { changesSince: page.stateVersion + 10 });
    expect(beyond.stateChanges).toMatchObject({ events: [], historyGap: false, hasMore: false });
    expect((await f.awareness.status(PEER)).stateChanges).toBeUndefined();
  });

  test('historyGap after pruning by age: exact at the prune watermark, retained events still returned', async () => {
    f = await openFixture(kind, { retention: { maxAgeMs: 1000 } });
    const old = [];
    for (let i = 0; i < 3; i += 1) old.push(sequenceOf(await f.awareness.record(humanTurn(PEER))));
    f.clock.advance(5000);
    const fresh = sequenceOf(await f.awareness.record(humanTurn(PEER)));

    const pruned = await f.awareness.prune();
    expect(pruned.eventsDeleted).toBe(3);

    const fromZero = await f.awareness.status(PEER, { changesSince: 0 });
    expect(fromZero.stateChanges?.historyGap).toBe(true);
    expect(fromZero.stateChanges?.events.map((e) => e.sequence)).toEqual([fresh]);
    const fromWatermark = await f.awareness.status(PEER, { changesSince: old[2] as number });
    expect(fromWatermark.stateChanges?.historyGap).toBe(false);
    expect(f.awareness.metrics()).toMatchObject({ gapsServed: 1, rowsPruned: 3 });
  });

  test('historyGap after pruning by row cap keeps the newest rows across sessions', async () => {
    f = await openFixture(kind, { retention: { maxRows: 5 } });
    const recorded = [];
    for (let i = 0; i < 8; i += 1) recorded.push(sequenceOf(await f.awareness.record(humanTurn(i % 2 === 0 ? PEER : CHILD))));

    expect(await f.awareness.prune()).toEqual({ eventsDeleted: 3, cursorsExpired: 0 });
    const peer = await f.awareness.status(PEER, { changesSince: 0 });
    const child = await f.awareness.status(CHILD, { changesSince: 0 });
    expect([...(peer.stateChanges?.events ?? []), ...(child.stateChanges?.events ?? [])].map((e) => e.sequence).sort((a, b) => a - b)).toEqual(recorded.slice(3));
    expect(peer.stateChanges?.historyGap).toBe(true);
    // The last pruned PEER event is recorded[2]: asking from there shows no gap.
    expect((await f.awareness.status(PEER, { changesSince: recorded[2] as number })).stateChanges?.historyGap).toBe(false);
    // The state version survives pruning.
    expect(peer.stateVersion).toBe(recorded[6]);
  });

  test('list gives one row per key, with stateVersion only above 0', async () => {
    f = await openFixture(kind);
    const seq = sequenceOf(await f.awareness.record(humanTurn(PEER)));
    expect(await f.awareness.list([PEER, CHILD, 'global', PEER])).toEqual([
      { sessionKey: PEER, stateVersion: seq },
      { sessionKey: CHILD },
      { sessionKey: 'global' },
      { sessionKey: PEER, stateVersion: seq },
    ]);
    expect(await f.awareness.list([])).toEqual([]);
  });

  test('reading never creates a cursor or touches a notice', async () => {
    f = await openFixture(kind);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    const before = noticeTexts(f.awareness.pending(PARENT));
    await f.awareness.status(CHILD, { changesSince: 0 });
    await f.awareness.list([CHILD]);
    await f.awareness.status(PEER, { changesSince: 0 });
    await f.awareness.record(humanTurn(PEER));

    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(before);
    expect(noticeTexts(f.awareness.pending(PEER))).toEqual([]);
    expect(f.wakes).toEqual([PARENT]);
  });
});
