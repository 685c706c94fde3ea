// The WAL schedule of long writes: checkpoints run beside the batches, one at a time, and a batch
// waits for them only once the WAL holds `walRows` rows' pages, until every row is checkpointed.
import { createWalSchedule } from '../src/worker/walBound.js';
import { manualCheckpointer } from './support/manualCheckpointer.js';

const settledWithin = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

test('a batch runs beside a running checkpoint while the WAL is below its bound', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createWalSchedule(checkpointer, 100, 1000);
  schedule.written(100, false);
  expect(checkpointer.runs).toBe(1);
  expect(await settledWithin(schedule.ready())).toBe(true);
  // Rows written while it runs go to the next checkpoint, started when it ends.
  schedule.written(100, false);
  expect(checkpointer.runs).toBe(1);
  await checkpointer.finish();
  expect(checkpointer.runs).toBe(2);
});

test('at the bound, the next batch waits until every row written is checkpointed', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createWalSchedule(checkpointer, 100, 300);
  for (let i = 0; i < 3; i += 1) {
    await schedule.ready();
    schedule.written(100, false);
  }
  const ready = schedule.ready();
  expect(await settledWithin(ready)).toBe(false);
  await checkpointer.finish(); // the first checkpoint; rows written after it started remain
  expect(await settledWithin(ready)).toBe(false);
  await checkpointer.finish();
  expect(await settledWithin(ready)).toBe(true);
  // The WAL starts over with that batch: the count begins again.
  schedule.written(100, false);
  expect(await settledWithin(schedule.ready())).toBe(true);
});

test('a checkpoint that ends while a batch is writing does not count that batch as checkpointed', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createWalSchedule(checkpointer, 100, 300);
  await schedule.ready();
  schedule.written(100, false);
  for (let i = 0; i < 2; i += 1) {
    await schedule.ready();
    // The running checkpoint ends during the batch, before the batch reports its rows.
    await checkpointer.finish();
    schedule.written(100, false);
  }
  // 300 rows since the WAL last started over, though no checkpoint was running at any batch's end.
  expect(await settledWithin(schedule.ready())).toBe(false);
});

test('the last batch checkpoints whatever is left, however few rows', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createWalSchedule(checkpointer, 100, 300);
  schedule.written(5, true);
  expect(checkpointer.runs).toBe(1);
});

test("with the WAL's own size, a batch waits only once the WAL holds the bound's frames, not all copied back", async () => {
  const checkpointer = manualCheckpointer();
  const wal = { walFrames: 0, checkpointed: 0 };
  const schedule = createWalSchedule(checkpointer, 1000, 300, () => wal);
  // The batches' estimate reached the bound, the WAL itself has not.
  schedule.written(400, false);
  wal.walFrames = 299;
  expect(await settledWithin(schedule.ready())).toBe(true);
  wal.walFrames = 300;
  const ready = schedule.ready();
  expect(await settledWithin(ready)).toBe(false);
  await checkpointer.finish();
  expect(await settledWithin(ready)).toBe(true);
  // Every frame copied back: the next write starts the WAL over, so nothing waits.
  wal.checkpointed = 300;
  schedule.written(10, false);
  expect(await settledWithin(schedule.ready())).toBe(true);
});
