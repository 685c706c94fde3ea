// The group-commit batcher alone: one flush per tick, requests joining while a flush waits,
// and every caller settling with its own outcome.
import { createGroupCommit } from '../../src/groupCommit';
import { createOperationLane } from '../../src/operationLane';

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
    );
    expect(await Promise.all([commit.submit(1), commit.submit(2)])).toEqual(['failed 1: down', 'failed 2: down']);
    fail = false;
    expect(await Promise.all([commit.submit(1), commit.submit(2)])).toEqual(['2', 'failed 2: no outcome for this request']);
  });
});
