// The group-commit batcher alone: one flush per tick, requests joining while a flush waits,
// every caller settling with its own outcome, and batches bounded by count and by weight.
import { createGroupCommit, type GroupCommitOptions } from '../../src/pipeline/groupCommit.js';
import { createOperationLane } from '../../src/pipeline/lane.js';

/** Bounds no test of one tick reaches. */
const WIDE: GroupCommitOptions<number> = { bounds: { maxRequests: 1000, maxWeight: Number.MAX_SAFE_INTEGER }, weigh: () => 1 };

describe('the group-commit batcher', () => {
  test('requests of one tick form one batch and each gets its own outcome', async () => {
    const batches: number[][] = [];
    const commit = createGroupCommit<number, string>(
      (run) => void run(),
      async (requests) => {
        batches.push([...requests]);
        return requests.map((r) => `done ${r}`);
      },
      (requests) => requests.map(() => 'failed'),
      WIDE,
    );
    const results = await Promise.all([1, 2, 3].map((n) => commit.submit(n)));
    expect(results).toEqual(['done 1', 'done 2', 'done 3']);
    expect(batches).toEqual([[1, 2, 3]]);
    await commit.submit(4);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  test('requests made while a batch waits in the lane join it', async () => {
    const lane = createOperationLane();
    const batches: number[][] = [];
    const commit = createGroupCommit<number, number>(
      (run) => void lane.run(run),
      async (requests) => {
        batches.push([...requests]);
        return requests;
      },
      (requests) => requests.map(() => -1),
      WIDE,
    );
    let release: () => void = () => undefined;
    const blocker = lane.run(() => new Promise<void>((resolve) => (release = resolve)));
    const first = commit.submit(1);
    await Promise.resolve();
    await Promise.resolve();
    const second = commit.submit(2);
    release();
    await blocker;
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(batches).toEqual([[1, 2]]);
  });

  test('a failing flush or a missing outcome fails the affected callers with the fallback', async () => {
    let fail = true;
    const commit = createGroupCommit<number, string>(
      (run) => void run(),
      async (requests) => {
        if (fail) throw new Error('down');
        return requests.slice(1).map(String); // one outcome short
      },
      (requests, error) => requests.map((r) => `failed ${r}: ${(error as Error).message}`),
      WIDE,
    );
    expect(await Promise.all([commit.submit(1), commit.submit(2)])).toEqual(['failed 1: down', 'failed 2: down']);
    fail = false;
    expect(await Promise.all([commit.submit(1), commit.submit(2)])).toEqual(['2', 'failed 2: no outcome for this request']);
  });

  test('a batch never exceeds its bounds: requests beyond them go to the next batch, in call order, each with its own outcome', async () => {
    const lane = createOperationLane();
    const batches: number[][] = [];
    const commit = createGroupCommit<number, number>(
      (run) => void lane.run(run),
      async (requests) => {
        batches.push([...requests]);
        return requests.map((r) => r * 10);
      },
      (requests) => requests.map(() => -1),
      // Request r weighs r: at most 4 requests and a weight of 10 per batch; 12 is heavier than a batch.
      { bounds: { maxRequests: 4, maxWeight: 10 }, weigh: (r) => r },
    );
    const requests = [1, 1, 1, 1, 1, 2, 3, 4, 12, 1, 1];
    const results = await Promise.all(requests.map((r) => commit.submit(r)));
    expect(results).toEqual(requests.map((r) => r * 10));
    expect(batches).toEqual([[1, 1, 1, 1], [1, 2, 3, 4], [12], [1, 1]]);
  });

  test('a batch that is not full (no burst) is written before a turn of the event loop passes', async () => {
    const lane = createOperationLane();
    const events: string[] = [];
    const commit = createGroupCommit<number, number>(
      (run) => void lane.run(run),
      async (requests) => {
        events.push(`batch ${requests.join(',')}`);
        return requests;
      },
      (requests) => requests.map(() => -1),
      { bounds: { maxRequests: 2, maxWeight: 100 }, weigh: () => 1 },
    );
    const calls = [1, 2].map((r) => commit.submit(r));
    setImmediate(() => events.push('turn'));
    await Promise.all(calls);
    expect(events).toEqual(['batch 1,2']);
  });

  test('every batch of a burst, the first too, waits a turn of the event loop; an operation called after the burst still runs after all of it', async () => {
    const lane = createOperationLane();
    const events: string[] = [];
    const commit = createGroupCommit<number, number>(
      (run) => void lane.run(run),
      async (requests) => {
        events.push(`batch ${requests.join(',')}`);
        return requests;
      },
      (requests) => requests.map(() => -1),
      { bounds: { maxRequests: 2, maxWeight: 100 }, weigh: () => 1 },
    );
    const calls = [1, 2, 3, 4, 5].map((r) => commit.submit(r));
    setImmediate(() => events.push('turn'));
    // What the facade does for any other operation: seal the batches, then enter the lane.
    commit.flushNow();
    const after = lane.run(async () => {
      events.push('later operation');
    });
    await Promise.all([...calls, after]);
    // The first batch is not written in the caller's own turn, after its issuing loop.
    expect(events.indexOf('turn')).toBe(0);
    expect(events.filter((e) => e !== 'turn')).toEqual(['batch 1,2', 'batch 3,4', 'batch 5', 'later operation']);
  });
});
