// Group commit through the facade, on every store: records of one tick go to the store as one
// batch, and each caller still gets its own outcome.
import { InvalidInputError, type RecordResult } from '../src';
import { CHILD, humanTurn, openFixture, PARENT, PEER, type Fixture } from './support/harness';
import { faultyStoreOption, type Faults } from './support/faultyStore';
import { storeMatrix, type StoreKind } from './support/stores';

const appendBatchSizes = (faults: Faults): number[] => (faults.calls.append ?? []).map((args) => (args[0] as unknown[]).length);

describe.each(storeMatrix)('group commit on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  let faults: Faults;
  beforeEach(async () => {
    const faulty = faultyStoreOption();
    f = await openFixture(kind, { wrap: faulty.wrap });
    faults = faulty.faults();
  });
  afterEach(async () => {
    await f.dispose();
  });

  test('100 records in one tick are one store batch; one bad input fails only itself', async () => {
    const BAD = 37;
    const calls: Promise<RecordResult>[] = [];
    for (let i = 0; i < 100; i += 1) {
      calls.push(f.awareness.record(i === BAD ? humanTurn(PEER, { summary: ' \n\t ' }) : humanTurn(PEER, { summary: `turn ${i}` })));
    }
    const results = await Promise.all(calls);

    expect(appendBatchSizes(faults)).toEqual([99]);
    const bad = results[BAD];
    expect(bad?.ok).toBe(false);
    expect(bad !== undefined && !bad.ok && bad.error).toBeInstanceOf(InvalidInputError);
    const sequences = results.filter((_, i) => i !== BAD).map((r) => (r.ok && 'event' in r ? r.event.sequence : Number.NaN));
    expect(sequences.every((s, i) => i === 0 || s > (sequences[i - 1] as number))).toBe(true);
    results.forEach((r, i) => {
      if (i !== BAD && r.ok && 'event' in r) expect(r.event.summary).toBe(`turn ${i}`);
    });
    const status = await f.awareness.status(PEER, { changesSince: 0 });
    expect(status.stateChanges?.events.map((e) => e.sequence)).toEqual(sequences);
  });

  test('a spawn and the turns of the same tick share a batch and apply in order', async () => {
    const [spawned, ...turns] = await Promise.all([
      f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD }),
      f.awareness.record(humanTurn(CHILD)),
      f.awareness.record(humanTurn(CHILD)),
    ]);
    expect(appendBatchSizes(faults)).toEqual([3]);
    expect(spawned?.ok).toBe(true);
    expect(turns.every((t) => t.ok)).toBe(true);
    expect(f.awareness.pending(PARENT)).toHaveLength(1);
    expect(f.wakes).toEqual([PARENT]);
  });

  test('a duplicate dedupeKey inside one batch returns the first event', async () => {
    const [first, second] = await Promise.all([
      f.awareness.record(humanTurn(PEER, { dedupeKey: 'turn:7' })),
      f.awareness.record(humanTurn(PEER, { dedupeKey: 'turn:7', summary: 'a retry' })),
    ]);
    expect(first?.ok && 'event' in first).toBe(true);
    expect(second).toEqual(first);
    expect((await f.awareness.status(PEER, { changesSince: 0 })).stateChanges?.events).toHaveLength(1);
  });

  test('a record awaited alone is a batch of one', async () => {
    await f.awareness.record(humanTurn(PEER));
    await f.awareness.record(humanTurn(PEER));
    expect(appendBatchSizes(faults)).toEqual([1, 1]);
  });

  test('a failing batch fails each of its records and the next batch works', async () => {
    faults.failNext('append');
    const failed = await Promise.all([f.awareness.record(humanTurn(PEER)), f.awareness.record(humanTurn(CHILD))]);
    expect(failed.map((r) => r.ok)).toEqual([false, false]);
    const next = await Promise.all([f.awareness.record(humanTurn(PEER)), f.awareness.record(humanTurn(CHILD))]);
    expect(next.map((r) => r.ok)).toEqual([true, true]);
    expect(f.awareness.metrics()).toMatchObject({ appendFailures: 2, eventsAppended: 2 });
  });
});
