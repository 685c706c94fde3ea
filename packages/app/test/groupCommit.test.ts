// Group commit through the facade, on every store: records of one tick go to the store as one
// batch, and each caller still gets its own outcome.
import { APPEND_BATCH_BOUNDS, InvalidInputError, type RecordResult } from '../src/index.js';
import { appendRequestWeight } from '../src/pipeline/appendPipeline.js';
import type { AppendRequest } from '@session-state/domain';
import { faultStoreOption, storeMatrix, type FaultStore, type StoreKind } from '@session-state/testkit';
import { CHILD, humanTurn, openFixture, PARENT, PEER, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const appendBatchSizes = (faults: FaultStore): number[] => faults.argsOf('append').map((args) => (args[0] as unknown[]).length);
const appendBatchWeights = (faults: FaultStore): number[] =>
  faults.argsOf('append').map((args) => (args[0] as AppendRequest[]).reduce((sum, request) => sum + appendRequestWeight(request), 0));

/** Sequences of ok results, in call order (NaN for anything else). */
const sequencesOf = (results: readonly RecordResult[]): number[] => results.map((r) => (r.ok && 'event' in r ? r.event.sequence : Number.NaN));
const rising = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || x > (xs[i - 1] as number));

describe.each(storeMatrix)('group commit on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  let faults: FaultStore;
  beforeEach(async () => {
    const faulty = faultStoreOption();
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
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
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

  test('a burst beyond the batch bound: no store batch exceeds the bound, every record gets its own ok result, in call order', async () => {
    const n = 3 * APPEND_BATCH_BOUNDS.maxRequests + 17;
    const calls: Promise<RecordResult>[] = [];
    for (let i = 0; i < n; i += 1) calls.push(f.awareness.record(humanTurn(PEER, { summary: `turn ${i}` })));
    // Called after the burst in the same tick: it must see all of it (call order across batches).
    const status = f.awareness.status(PEER);
    const results = await Promise.all(calls);

    const sizes = appendBatchSizes(faults);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(APPEND_BATCH_BOUNDS.maxRequests);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
    expect(results.every((r) => r.ok)).toBe(true);
    const sequences = sequencesOf(results);
    expect(rising(sequences)).toBe(true);
    results.forEach((r, i) => {
      if (r.ok && 'event' in r) expect(r.event.summary).toBe(`turn ${i}`);
    });
    expect((await status).stateVersion).toBe(sequences[n - 1]);
  });

  test('a burst of heavy payloads: no store batch exceeds the weight bound, every record ok and in call order', async () => {
    const big = { blob: 'x'.repeat(4000) };
    const n = Math.ceil((2 * APPEND_BATCH_BOUNDS.maxWeight) / 4000) + 5;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => f.awareness.record(humanTurn(PEER, { summary: `heavy ${i}`, payload: big }))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(rising(sequencesOf(results))).toBe(true);
    const sizes = appendBatchSizes(faults);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...appendBatchWeights(faults))).toBeLessThanOrEqual(APPEND_BATCH_BOUNDS.maxWeight);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
  });
});
