// Battery 4 (issue 7): load. A watcher that never drains while 60,000 events arrive on its
// target, with pruning on: it holds exactly one byte-stable notice and one wake throughout, and
// its eventual reconcile reports historyGap: true with the head, never a silent skip. A restart
// with 10,000 lagging pairs queues each notice exactly once (and a second restart no more).
// The heap is measured (after a forced GC) along the way and must stay bounded.
import { createManualClock } from '@session-state/adapters-memory';
import { asSequence, type SessionKey, type StateStore } from '@session-state/domain';
import { faultStore, noticeTextOf, storeMatrix, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, type SessionStateAwareness } from '../../src/index.js';
import { recordingLogger, START } from '../support/harness.js';
import { expectNo } from './support/failureClasses.js';
import { measureMemory, type MemoryFigures } from './support/memory.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { noticeTexts } from '../support/noticeTexts.js';

const EVENTS = scaled(60_000);
const CHUNK = 1000;
const MAX_ROWS = 5000;
const HOUR = 60 * 60 * 1000;
const SIDE = Math.round(Math.sqrt(scaled(10_000)));
/** Heap growth allowed between the first fifth of the events and the end (measured: see the report line). */
const HEAP_BOUND_MIB = 48;

const W = 'agent:main:main';
const T = 'agent:main:subagent:busy';

/** Prints the measured figures once per scenario, so a run shows how much memory it took. */
function report(label: string, figures: Record<string, MemoryFigures | number>): void {
  process.stdout.write(`[reliability load] ${label}: ${JSON.stringify(figures)}\n`);
}

async function open(kind: StoreKind, store: StateStore, clock = createManualClock(START)) {
  const faults = faultStore(store);
  const wakes: string[] = [];
  const awareness = await createSessionStateAwareness({
    store: faults.store,
    clock,
    logger: recordingLogger(),
    wake: (w) => wakes.push(w),
    retention: { maxRows: MAX_ROWS },
  });
  await faults.settle();
  return { awareness, wakes, clock, faults, kind };
}

describe.each(storeMatrix)('load on the %s store', (name, kind) => {
  test(`a watcher that never drains while ${EVENTS} events arrive holds one notice, and its reconcile reports the gap and the head`, async () => {
    const stores = await kind.open();
    let awareness: SessionStateAwareness | undefined;
    try {
      const rig = await open(kind, stores.store);
      awareness = rig.awareness;
      const spawn = await awareness.childSpawned({ parentKey: W, childKey: T });
      if (!spawn.ok) throw new Error('spawn failed');
      const seed = spawn.event.sequence;
      const text = noticeTextOf(T, seed);
      const sequences: number[] = [];
      const before = measureMemory();
      let early: MemoryFigures | undefined;
      let peakHeap = 0;
      for (let done = 0; done < EVENTS; done += CHUNK) {
        // Every fifth chunk an hour passes, so the next append starts the background prune.
        if (done % (5 * CHUNK) === 0 && done > 0) rig.clock.advance(HOUR + 1);
        const results = await Promise.all(
          Array.from({ length: Math.min(CHUNK, EVENTS - done) }, (_, i) =>
            awareness!.record({ sessionKey: T, kind: 'human_direct_message', actorType: 'human', summary: `turn ${done + i}` }),
          ),
        );
        for (const result of results) {
          if (!result.ok || !('event' in result)) throw new Error(`record failed: ${JSON.stringify(result)}`);
          sequences.push(result.event.sequence);
        }
        await rig.faults.settle();
        const pending = noticeTexts(awareness.pending(W));
        expectNo('duplicate-notice', pending.length <= 1, () => `after ${done + CHUNK} events: ${pending.length} notices`);
        expectNo('lost-notice', pending.length === 1, () => `after ${done + CHUNK} events: no notice`);
        expectNo('duplicate-notice', pending[0] === text, () => `the pending text changed: ${pending[0]}`);
        expectNo('duplicate-notice', rig.wakes.length === 1, () => `${rig.wakes.length} wakes`);
        if (done + CHUNK === Math.round(EVENTS / 5 / CHUNK) * CHUNK) early = measureMemory();
        if (done % (10 * CHUNK) === 0) peakHeap = Math.max(peakHeap, measureMemory().heapUsedMiB);
      }
      const after = measureMemory();
      report(`${name}: ${EVENTS} events on one watched target`, { before, atOneFifth: early ?? after, after, peakHeapMiB: peakHeap });
      expect(after.heapUsedMiB - (early ?? before).heapUsedMiB).toBeLessThan(HEAP_BOUND_MIB);

      // Pruning really happened, and the stored row count stays near the cap.
      const head = sequences[sequences.length - 1] as number;
      const status = await awareness.status(T);
      expectNo('head-regression', status.stateVersion === head, () => `stateVersion ${status.stateVersion}, head ${head}`);

      // The watcher's turn finally comes: one notice; the drain reopens once for the rest.
      const drained = noticeTexts(await awareness.drain(W));
      expect(drained).toEqual([text]);
      const reopened = noticeTexts(awareness.pending(W));
      expect(reopened).toEqual([noticeTextOf(T, sequences[0] as number)]);

      // Reconcile from the notice's changesSince: a gap, the head, and every retained event after it.
      const { pruneWatermark } = (await rig.faults.store.readChanges(T as SessionKey, asSequence(head), 1)).head;
      expect(pruneWatermark).toBeGreaterThan(sequences[0] as number);
      for (const since of [seed, sequences[0] as number]) {
        const seen: number[] = [];
        let cursor = since;
        for (let page = 0; page < 1000; page += 1) {
          const next = await awareness.status(T, { changesSince: cursor });
          const changes = next.stateChanges!;
          if (page === 0) {
            expectNo('missed-gap', changes.historyGap, () => `changesSince ${since} below prune watermark ${pruneWatermark}: no historyGap`);
            expectNo('head-regression', next.stateVersion === head, () => `stateVersion ${next.stateVersion}, head ${head}`);
          }
          seen.push(...changes.events.map((e) => e.sequence));
          if (!changes.hasMore) break;
          cursor = changes.nextSince;
        }
        expect(seen[seen.length - 1]).toBe(head);
        // No silent skip: every event above the prune watermark is returned, in order, once.
        const expected = sequences.filter((s) => s > pruneWatermark);
        expectNo('missed-gap', JSON.stringify(seen) === JSON.stringify(expected), () => `paging from ${since} returned ${seen.length} of ${expected.length} retained events`);
        expect(seen.length).toBeLessThanOrEqual(MAX_ROWS + 5 * CHUNK);
      }
      noticeTexts(await awareness.drain(W));
      const caughtUp = await awareness.status(T, { changesSince: head });
      expectNo('false-gap', caughtUp.stateChanges?.historyGap === false, () => 'a caught-up watcher was told of a gap');
      expect(noticeTexts(awareness.pending(W))).toEqual([]);
    } finally {
      if (awareness !== undefined) await awareness.close();
      await stores.cleanup();
    }
  }, scaledTimeout(60_000));

  test(`a restart with ${SIDE * SIDE} lagging pairs queues each notice exactly once`, async () => {
    const stores = await kind.open();
    let awareness: SessionStateAwareness | undefined;
    try {
      const clock = createManualClock(START);
      const first = await open(kind, stores.store, clock);
      awareness = first.awareness;
      const watchers = Array.from({ length: SIDE }, (_, i) => `agent:w${i}:main`);
      const targets = Array.from({ length: SIDE }, (_, j) => `agent:t${j}:main`);
      for (const watcher of watchers) {
        await Promise.all(targets.map((target) => awareness!.sent({ senderKey: watcher, deliveredTo: target, watch: true })));
      }
      await Promise.all(targets.map((target) => awareness!.record({ sessionKey: target, kind: 'goal_changed', actorType: 'human', summary: 'changed' })));
      expect(first.wakes).toHaveLength(SIDE * SIDE);
      const before = measureMemory();

      // Restart: a new facade over the same durable state.
      await awareness.close();
      awareness = undefined;
      const second = await open(kind, await stores.reopen(), clock);
      awareness = second.awareness;
      const afterScan = measureMemory();
      let total = 0;
      for (const watcher of watchers) {
        const pending = noticeTexts(awareness.pending(watcher));
        total += pending.length;
        expectNo('duplicate-notice', new Set(pending).size === pending.length && pending.length <= SIDE, () => `${watcher}: ${pending.length} notices`);
        expectNo('lost-notice', pending.length === SIDE, () => `${watcher}: ${pending.length} of ${SIDE} notices`);
        expectNo('lost-notice', pending.every((text, j) => text === noticeTextOf(targets.slice().sort()[j] as string, 0)), () => `${watcher}: ${pending[0]}`);
      }
      expect(total).toBe(SIDE * SIDE);
      expectNo('duplicate-notice', second.wakes.length === SIDE * SIDE, () => `${second.wakes.length} wakes for ${SIDE * SIDE} recovered notices`);
      expect(awareness.metrics().noticesRecovered).toBe(SIDE * SIDE);
      report(`${name}: restart with ${SIDE * SIDE} lagging pairs`, { beforeRestart: before, afterScan });

      // A second restart queues the same, not more.
      await awareness.close();
      awareness = undefined;
      const third = await open(kind, await stores.reopen(), clock);
      awareness = third.awareness;
      expectNo('duplicate-notice', third.wakes.length === SIDE * SIDE, () => `second restart: ${third.wakes.length} wakes`);
      expect(watchers.reduce((n, w) => n + awareness!.pending(w).length, 0)).toBe(SIDE * SIDE);
    } finally {
      if (awareness !== undefined) await awareness.close();
      await stores.cleanup();
    }
  }, scaledTimeout(60_000));
});
