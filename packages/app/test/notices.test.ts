// Scenarios of SPEC 4-5 through the facade, on every store: one coalesced notice per pair,
// drain and reopen, self-suppression, explicit watch, global keys, log-only kinds and wake.
import { noticeTextOf, storeMatrix } from '@session-state/testkit';

import {
  CHILD,
  humanTurn,
  OTHER_CHILD,
  openFixture,
  PARENT,
  PEER,
  type Fixture,
} from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

describe.each(storeMatrix)('notices on the %s store', (_name, kind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind);
  });
  afterEach(async () => {
    await f.dispose();
  });

  test('a spawn then a human turn gives the parent exactly one notice with the SPEC text', async () => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    if (!spawned.ok) throw spawned.error;
    expect(spawned.event).toMatchObject({ sessionKey: CHILD, kind: 'child_spawned', actorType: 'agent', actorSessionKey: PARENT });
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);

    const turn = await f.awareness.record(humanTurn(CHILD));
    expect(turn.ok).toBe(true);

    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([noticeTextOf(CHILD, spawned.event.sequence)]);
    expect(noticeTexts(f.awareness.pending(CHILD))).toEqual([]);
  });

  test('twenty rapid human turns leave one notice and one wake', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => f.awareness.record(humanTurn(CHILD))));
    for (let i = 0; i < 10; i += 1) await f.awareness.record(humanTurn(CHILD));

    expect(concurrent.every((r) => r.ok)).toBe(true);
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
    expect(f.wakes).toEqual([PARENT]);
    expect(f.awareness.metrics()).toMatchObject({ noticesQueued: 1, noticesCoalesced: 19 });
  });

  test('a drain without interleaving consumes the notice and leaves none after', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    const pendingBefore = noticeTexts(f.awareness.pending(PARENT));

    expect(noticeTexts(await f.awareness.drain(PARENT))).toEqual(pendingBefore);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    expect(noticeTexts(await f.awareness.drain(PARENT))).toEqual([]);
  });

  test('a drain after interleaved changes reopens exactly once with the new changesSince', async () => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    if (!spawned.ok) throw spawned.error;
    const first = await f.awareness.record(humanTurn(CHILD));
    if (!first.ok || !('event' in first)) throw new Error('first turn not recorded');
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(CHILD));

    expect(noticeTexts(await f.awareness.drain(PARENT))).toEqual([noticeTextOf(CHILD, spawned.event.sequence)]);
    // The notice covered up to the first turn; the later ones reopen one notice from there.
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([noticeTextOf(CHILD, first.event.sequence)]);
    expect(f.wakes).toEqual([PARENT, PARENT]);

    noticeTexts(await f.awareness.drain(PARENT));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    expect(f.awareness.metrics().noticesReopened).toBe(1);
  });

  test('an event caused by the watcher itself never notifies it', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record({ sessionKey: CHILD, kind: 'goal_changed', actorType: 'agent', actorSessionKey: PARENT, summary: 'goal set by parent' });

    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    expect(f.wakes).toEqual([]);

    await f.awareness.record({ sessionKey: CHILD, kind: 'goal_changed', actorType: 'agent', actorSessionKey: PEER, summary: 'goal set by a peer' });
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
  });

  test('an explicit watch starts at the current version and keeps an existing cursor', async () => {
    for (let i = 0; i < 3; i += 1) await f.awareness.record(humanTurn(PEER));
    const before = await f.awareness.status(PEER);

    expect(await f.awareness.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true })).toEqual({ watched: true });
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);

    await f.awareness.record(humanTurn(PEER));
    // A second registration keeps the cursor (and so the pending notice) as it is.
    expect(await f.awareness.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true })).toEqual({ watched: true });
    await f.awareness.record(humanTurn(PEER));

    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([noticeTextOf(PEER, before.stateVersion)]);
  });

  test('sent reports watched: false for no watch, failed delivery, self and non-agent keys', async () => {
    const cases = [
      { senderKey: PARENT, deliveredTo: PEER, watch: false },
      { senderKey: PARENT, deliveredTo: PEER, watch: true, delivered: false },
      { senderKey: PARENT, deliveredTo: PARENT, watch: true },
      { senderKey: 'global', deliveredTo: PEER, watch: true },
      { senderKey: PARENT, deliveredTo: 'global', watch: true },
    ];
    for (const input of cases) expect(await f.awareness.sent(input)).toEqual({ watched: false });

    await f.awareness.record(humanTurn(PEER));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test('a global session never watches or is watched, but status works for it', async () => {
    expect(await f.awareness.sent({ senderKey: 'global', deliveredTo: CHILD, watch: true })).toEqual({ watched: false });
    const spawned = await f.awareness.childSpawned({ parentKey: 'global', childKey: CHILD });
    expect(spawned.ok).toBe(true);
    await f.awareness.record(humanTurn(CHILD));
    const logged = await f.awareness.record(humanTurn('global'));
    if (!logged.ok || !('event' in logged)) throw new Error('global turn not recorded');

    expect(noticeTexts(f.awareness.pending('global'))).toEqual([]);
    expect(f.wakes).toEqual([]);
    const status = await f.awareness.status('global', { changesSince: 0 });
    expect(status.stateVersion).toBe(logged.event.sequence);
    expect(status.stateChanges?.events.map((e) => e.sequence)).toEqual([logged.event.sequence]);
  });

  test('log-only kinds never notify and run_failed keeps its outcome', async () => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    if (!spawned.ok) throw spawned.error;
    await f.awareness.record({ sessionKey: CHILD, kind: 'run_completed', actorType: 'system', summary: 'run done' });
    await f.awareness.record({ sessionKey: CHILD, kind: 'run_failed', actorType: 'system', summary: 'run timed out', payload: { outcome: 'timeout' } });
    await f.awareness.record({ sessionKey: CHILD, kind: 'compacted', actorType: 'system', summary: 'history compacted' });
    await f.awareness.record({ sessionKey: CHILD, kind: 'adopted', actorType: 'human', summary: 'adopted from catalog' });

    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    const status = await f.awareness.status(CHILD, { changesSince: spawned.event.sequence });
    const failed = status.stateChanges?.events.find((e) => e.kind === 'run_failed');
    expect(failed?.payload).toEqual({ outcome: 'timeout' });
  });

  test('wake runs once per newly queued notice and never for a nested sub-agent watcher', async () => {
    const nested = 'agent:main:subagent:child-7:subagent:leaf';
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await f.awareness.childSpawned({ parentKey: CHILD, childKey: nested });

    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    await f.awareness.record(humanTurn(nested));

    // Two targets give the parent two notices (distinct pairs never fold) and two wakes.
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(2);
    expect(f.wakes).toEqual([PARENT, PARENT]);
    // The nested sub-agent watcher finds its notice on its next turn, without a wake.
    expect(noticeTexts(f.awareness.pending(CHILD))).toHaveLength(1);
  });

  test('a duplicate dedupeKey returns the first event and queues nothing new', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const first = await f.awareness.record(humanTurn(CHILD, { dedupeKey: 'turn:1' }));
    noticeTexts(await f.awareness.drain(PARENT));
    const again = await f.awareness.record(humanTurn(CHILD, { dedupeKey: 'turn:1' }));

    expect(again).toEqual(first);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test('onlyIfWatched skips an unwatched session and writes nothing', async () => {
    const skipped = await f.awareness.record(humanTurn(PEER, { onlyIfWatched: true }));
    expect(skipped).toEqual({ ok: true, outcome: 'skipped', reason: 'unwatched' });
    expect((await f.awareness.status(PEER)).stateVersion).toBe(0);

    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const watched = await f.awareness.record(humanTurn(CHILD, { onlyIfWatched: true }));
    expect(watched.ok && 'event' in watched).toBe(true);
  });

  test('a retried spawn with the same dedupeKey touches no cursor; a new spawn edge replaces the pair', async () => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD, dedupeKey: 'child-spawned:run-1' });
    await f.awareness.record(humanTurn(CHILD));
    const retried = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD, dedupeKey: 'child-spawned:run-1' });
    expect(retried).toEqual(spawned);
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);

    const respawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD, dedupeKey: 'child-spawned:run-2' });
    if (!respawned.ok) throw respawned.error;
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
    await f.awareness.record(humanTurn(CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([noticeTextOf(CHILD, respawned.event.sequence)]);
  });
});
