// The facade's metrics hooks without a metrics library: the observer port hears each append
// batch and each completed prune run (counts and seconds), its throws change nothing, and
// noticeQueueDepth reads the notice queue. On every store.
import { createMemoryStore } from '@session-state/adapters-memory';
import type { AppendBatchObservation, PruneRunObservation } from '@session-state/domain';
import { faultStoreOption, storeMatrix, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, InvalidInputError } from '../src/index.js';
import { CHILD, humanTurn, openFixture, OTHER_CHILD, PARENT, type Fixture } from './support/harness.js';

/** A duration the facade measured: a finite number of seconds, never negative (its size is the bench's business). */
const aDuration = expect.any(Number);
const isDuration = (seconds: number): boolean => Number.isFinite(seconds) && seconds >= 0;

describe.each(storeMatrix)('the observer port on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  afterEach(async () => {
    await f.dispose();
  });

  test('hears every append batch store call (its appends, its seconds, failed or not) and every completed prune run with its totals', async () => {
    const batches: AppendBatchObservation[] = [];
    const runs: PruneRunObservation[] = [];
    const faulty = faultStoreOption();
    f = await openFixture(kind, {
      retention: { maxAgeMs: 1000 },
      wrap: faulty.wrap,
      observer: { appendBatch: (o) => batches.push(o), pruneRun: (o) => runs.push(o) },
    });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const results = await Promise.all([f.awareness.record(humanTurn(CHILD)), f.awareness.record(humanTurn(CHILD)), f.awareness.record(humanTurn(OTHER_CHILD))]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(batches.map((batch) => batch.appends).reduce((a, b) => a + b, 0)).toBe(4);
    expect(batches.length).toBe(faulty.faults().countOf('append'));
    expect(batches.every((batch) => !batch.failed && isDuration(batch.durationSeconds))).toBe(true);

    faulty.faults().failNext('append');
    expect((await f.awareness.record(humanTurn(CHILD))).ok).toBe(false);
    expect(batches.at(-1)).toEqual({ appends: 1, durationSeconds: aDuration, failed: true });

    f.clock.advance(5000);
    await faulty.faults().settle();
    const totals = await f.awareness.prune();
    expect(totals.eventsDeleted).toBe(4);
    expect(runs.at(-1)).toEqual({ ...totals, durationSeconds: aDuration });
    expect(runs.every((run) => isDuration(run.durationSeconds))).toBe(true);
  });

  test('an observer that throws is logged once per method and changes no result', async () => {
    f = await openFixture(kind, {
      observer: {
        appendBatch: () => {
          throw new Error('observer broke');
        },
      },
    });
    for (let i = 0; i < 3; i += 1) expect((await f.awareness.record(humanTurn(CHILD))).ok).toBe(true);
    expect(f.awareness.metrics().eventsAppended).toBe(3);
    const warnings = f.logger.entries.filter((entry) => entry.fields['operation'] === 'observer.appendBatch');
    expect(warnings).toEqual([{ level: 'warn', message: expect.stringContaining('observer threw'), fields: expect.objectContaining({ error: 'observer broke' }) }]);
  });

  test('noticeQueueDepth counts the notices queued over all watchers: coalesced ones once, a reopened one again, 0 when drained', async () => {
    f = await openFixture(kind);
    expect(f.awareness.noticeQueueDepth()).toBe(0);
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
    await f.awareness.record(humanTurn(CHILD));
    await f.awareness.record(humanTurn(OTHER_CHILD));
    expect(f.awareness.noticeQueueDepth()).toBe(2);
    await f.awareness.record(humanTurn(CHILD)); // coalesced: still one notice for the pair
    expect(f.awareness.noticeQueueDepth()).toBe(2);
    await f.awareness.drain(PARENT); // the later CHILD change reopens one notice
    expect(f.awareness.noticeQueueDepth()).toBe(1);
    await f.awareness.drain(PARENT);
    expect(f.awareness.noticeQueueDepth()).toBe(0);
  });
});

describe('options.observer', () => {
  test.each([
    ['a number', 3, 'options.observer'],
    ['a method that is not a function', { appendBatch: 'yes' }, 'options.observer.appendBatch'],
    ['an unknown method', { appendbatch: () => undefined }, 'options.observer.appendbatch'],
  ])('rejects %s with an InvalidInputError naming the field', async (_case, observer, field) => {
    const attempt = createSessionStateAwareness({ store: createMemoryStore(), observer: observer as never });
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toThrow(field);
  });
});
