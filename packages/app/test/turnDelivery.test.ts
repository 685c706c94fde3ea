// What a gateway's turn does with its notices (issue 27, "Done when"), on every store: a turn that
// takes its notices and crashes, or is cancelled, before the prompt reaches the model gets them back
// (at the restart, and at the next take after the lease); a turn that drains them loses them, so
// drain is for a gateway that renders in the same call. The burst case: a turn that takes, reads to
// the head as reader and confirms leaves no wake, no notice and no reopen behind it, and a gateway
// that checks pending on its heartbeat never runs an empty turn (with take or with drain).
import { noticeTextOf, storeMatrix } from '@session-state/testkit';

import type { Notice } from '../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

/** The default lease (`leaseMs`): the facade is built without the option, as most gateways will. */
const DEFAULT_LEASE_MS = 300_000;

describe.each(storeMatrix)('a turn’s notices on the %s store', (_name, kind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind);
  });
  afterEach(async () => {
    await f.dispose();
  });

  /** The parent watches the child (a spawn edge) and `turns` human turns change it; the spawn's sequence and the turns'. */
  const watchedChild = async (turns: number): Promise<{ seeded: number; changes: number[] }> => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    if (!spawned.ok) throw spawned.error;
    const changes: number[] = [];
    for (let i = 0; i < turns; i += 1) {
      const recorded = await f.awareness.record(humanTurn(CHILD));
      if (recorded.outcome !== 'recorded') throw new Error('turn not recorded');
      changes.push(recorded.event.sequence);
    }
    return { seeded: spawned.event.sequence, changes };
  };

  describe('the crash between taking and rendering', () => {
    test('a turn that takes its notice and crashes before the prompt reaches the model gets it back at the restart; rendered and confirmed, it never comes again', async () => {
      const { seeded } = await watchedChild(1);
      const text = noticeTextOf(CHILD, seeded);
      expect(noticeTexts(await f.awareness.take(PARENT))).toEqual([text]);
      // The crash: the facade goes without a confirm, and the gateway starts again on the same store.
      f = await f.restart();
      expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([text]);
      expect(f.wakes).toEqual([PARENT]);
      const taken = await f.awareness.take(PARENT);
      expect(noticeTexts(taken)).toEqual([text]);
      expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 1 });
      f = await f.restart();
      expect(f.awareness.pending(PARENT)).toEqual([]);
      expect(await f.awareness.take(PARENT)).toEqual([]);
      expect(f.wakes).toEqual([]);
    });

    test('a turn cancelled after its take (the gateway lives on): the notice is not handed out again while the lease runs, and comes back at the next take after it ends', async () => {
      const { seeded } = await watchedChild(1);
      const text = noticeTextOf(CHILD, seeded);
      expect(noticeTexts(await f.awareness.take(PARENT))).toEqual([text]);
      f.clock.advance(DEFAULT_LEASE_MS - 1);
      expect(f.awareness.pending(PARENT)).toEqual([]);
      expect(await f.awareness.take(PARENT)).toEqual([]);
      f.clock.advance(1);
      expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([text]);
      const again = await f.awareness.take(PARENT);
      expect(noticeTexts(again)).toEqual([text]);
      expect(await f.awareness.confirm(PARENT, again)).toEqual({ confirmed: 1 });
      f.clock.advance(DEFAULT_LEASE_MS);
      expect(f.awareness.pending(PARENT)).toEqual([]);
      expect(await f.awareness.take(PARENT)).toEqual([]);
    });

    test('a turn that drains and crashes before rendering has lost the notice: nothing brings it back, so drain is only for a gateway that renders in the same call', async () => {
      const { seeded } = await watchedChild(1);
      expect(noticeTexts(await f.awareness.drain(PARENT))).toEqual([noticeTextOf(CHILD, seeded)]);
      f = await f.restart();
      f.clock.advance(DEFAULT_LEASE_MS);
      expect(f.awareness.pending(PARENT)).toEqual([]);
      expect(await f.awareness.take(PARENT)).toEqual([]);
      expect(f.wakes).toEqual([]);
    });
  });

  describe('the empty turn', () => {
    test('two human messages; the turn takes, reads to the head as reader and confirms: no wake after the turn began, pending empty, no reopened notice', async () => {
      const { seeded, changes } = await watchedChild(2);
      expect(f.wakes).toEqual([PARENT]);
      const taken = await f.awareness.take(PARENT);
      expect(taken).toEqual([expect.objectContaining({ target: CHILD, changesSince: seeded, notified: changes[0] })]);
      const read = await f.awareness.status(CHILD, { changesSince: seeded, reader: PARENT });
      expect(read.stateChanges?.events.map((event) => event.sequence)).toEqual(changes);
      expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 0 });
      expect(f.wakes).toEqual([PARENT]);
      expect(f.awareness.pending(PARENT)).toEqual([]);
      expect(await f.awareness.take(PARENT)).toEqual([]);
      expect(f.awareness.metrics().noticesReopened).toBe(0);
      f = await f.restart();
      expect(f.awareness.pending(PARENT)).toEqual([]);
    });

    /**
     * A gateway loop of `beats` heartbeats: a wake only marks its watcher; a heartbeat runs a turn for a
     * marked watcher only when `pending` is not empty. A turn takes (or drains) its notices, reads each
     * target to its head as reader, and confirms. Counts the turns run, those that found nothing, and
     * the marks skipped because nothing was pending (the empty turns of a gateway that runs one per wake).
     */
    const heartbeats = async (mode: 'take' | 'drain', beats: number): Promise<{ turns: number; emptyTurns: number; skipped: number }> => {
      const marked = new Set<string>();
      let seen = 0;
      const counts = { turns: 0, emptyTurns: 0, skipped: 0 };
      for (let beat = 0; beat < beats; beat += 1) {
        for (const watcher of f.wakes.slice(seen)) marked.add(watcher);
        seen = f.wakes.length;
        for (const watcher of [...marked]) {
          marked.delete(watcher);
          if (f.awareness.pending(watcher).length === 0) {
            counts.skipped += 1;
            continue;
          }
          counts.turns += 1;
          const taken = mode === 'take' ? await f.awareness.take(watcher) : [];
          const notices: readonly Notice[] = mode === 'take' ? taken : await f.awareness.drain(watcher);
          if (notices.length === 0) counts.emptyTurns += 1;
          for (const notice of notices) await f.awareness.status(notice.target, { changesSince: notice.changesSince, reader: watcher });
          if (mode === 'take') await f.awareness.confirm(watcher, taken);
        }
      }
      return counts;
    };

    test.each(['take', 'drain'] as const)('a gateway that checks pending on its heartbeat before a turn never runs an empty turn after a burst (turns that %s)', async (mode) => {
      await watchedChild(2);
      // With drain the turn's own drain reopened a notice (a wake) that its read then withdrew; with take no wake was sent.
      expect(await heartbeats(mode, 3)).toEqual({ turns: 1, emptyTurns: 0, skipped: mode === 'drain' ? 1 : 0 });
      expect(f.wakes).toEqual(mode === 'drain' ? [PARENT, PARENT] : [PARENT]);
      expect(f.awareness.pending(PARENT)).toEqual([]);
    });
  });
});
